// The deadline helper every store ping, Redis PING, token check and incident write waits with.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withinDeadline } from './within-deadline';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Work that settles by itself after `ms` on the fake clock. */
function after<T>(ms: number, settle: () => T): Promise<T> {
  return new Promise((resolve, reject) => {
    setTimeout(() => {
      try {
        resolve(settle());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
}

describe('withinDeadline', () => {
  it('answers with the work when it is in time, and leaves no timer behind', async () => {
    const onTimeout = vi.fn(() => 'late');
    const answer = withinDeadline(
      after(999, () => 'pong'),
      1_000,
      onTimeout,
    );
    await vi.advanceTimersByTimeAsync(999);
    await expect(answer).resolves.toBe('pong');
    expect(vi.getTimerCount()).toBe(0);
    expect(onTimeout).not.toHaveBeenCalled();
  });

  it('passes the work’s own failure on, and leaves no timer behind', async () => {
    const answer = withinDeadline(Promise.reject(new Error('refused')), 1_000, () => 'late');
    await expect(answer).rejects.toThrow('refused');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('answers with onTimeout’s value at the deadline, not a moment before', async () => {
    let settled = false;
    const work = after(5_000, () => 'pong');
    const answer = withinDeadline(work, 1_000, () => undefined).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(answer).resolves.toBeUndefined();
  });

  it('fails with what onTimeout throws, and ignores a late failure of the work', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const work = after(100, () => {
        throw new Error('connection closed');
      });
      const answer = withinDeadline(work, 50, () => {
        throw new Error('Redis did not answer in time');
      });
      const outcome = expect(answer).rejects.toThrow('Redis did not answer in time');
      await vi.advanceTimersByTimeAsync(50);
      await outcome;
      await vi.advanceTimersByTimeAsync(50);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
