import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, PATIENTLY } from '../test-support/deferred';
import { BoundedLoads, LoadRefused } from './bounded-loads';

afterEach(() => {
  vi.useRealTimers();
});

/** A load that records its start and finishes when the test says. */
function heldLoad(started: string[], name: string) {
  const done = deferred<string>();
  return {
    load: () => {
      started.push(name);
      return done.promise;
    },
    finish: () => done.resolve(name),
  };
}

describe('BoundedLoads', () => {
  it('runs at most `running` loads at once and starts the waiting ones in arrival order', async () => {
    const loads = new BoundedLoads({ running: 2, waiting: 10 });
    const started: string[] = [];
    const held = ['a', 'b', 'c', 'd'].map((name) => heldLoad(started, name));
    const results = held.map((h) => loads.run(h.load, Date.now() + 60_000));
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    held[1]!.finish();
    await vi.waitFor(() => expect(started).toEqual(['a', 'b', 'c']), PATIENTLY);
    held[0]!.finish();
    await vi.waitFor(() => expect(started).toEqual(['a', 'b', 'c', 'd']), PATIENTLY);
    held[2]!.finish();
    held[3]!.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses a load at once when the queue is full, without running it', async () => {
    const loads = new BoundedLoads({ running: 1, waiting: 1 });
    const started: string[] = [];
    const first = heldLoad(started, 'first');
    const second = heldLoad(started, 'second');
    const third = heldLoad(started, 'third');
    const running = loads.run(first.load, Date.now() + 60_000);
    const queued = loads.run(second.load, Date.now() + 60_000);
    await expect(loads.run(third.load, Date.now() + 60_000)).rejects.toEqual(
      new LoadRefused('queue-full'),
    );
    first.finish();
    second.finish();
    await Promise.all([running, queued]);
    expect(started).toEqual(['first', 'second']);
  });

  it('refuses a waiting load whose deadline passes, and the next one still gets its turn', async () => {
    vi.useFakeTimers();
    const loads = new BoundedLoads({ running: 1, waiting: 5 });
    const started: string[] = [];
    const first = heldLoad(started, 'first');
    const late = heldLoad(started, 'late');
    const patient = heldLoad(started, 'patient');
    const running = loads.run(first.load, Date.now() + 60_000);
    const expiring = loads.run(late.load, Date.now() + 1_000);
    const waiting = loads.run(patient.load, Date.now() + 60_000);
    const refusal = expect(expiring).rejects.toEqual(new LoadRefused('deadline'));
    await vi.advanceTimersByTimeAsync(1_000);
    await refusal;
    first.finish();
    await running;
    await vi.waitFor(() => expect(started).toEqual(['first', 'patient']), PATIENTLY);
    patient.finish();
    await waiting;
  });

  it('frees the turn of a load that fails', async () => {
    const loads = new BoundedLoads({ running: 1, waiting: 1 });
    await expect(
      loads.run(() => Promise.reject(new Error('upstream down')), Date.now() + 1_000),
    ).rejects.toThrow('upstream down');
    await expect(loads.run(async () => 'next', Date.now() + 1_000)).resolves.toBe('next');
  });

  it('never runs more than `running` loads when hundreds arrive in the same tick', async () => {
    const loads = new BoundedLoads({ running: 4, waiting: 1_000 });
    let now = 0;
    let most = 0;
    const results = Array.from({ length: 300 }, (_, index) =>
      loads.run(async () => {
        now += 1;
        most = Math.max(most, now);
        await new Promise((resolve) => setTimeout(resolve, index % 3));
        now -= 1;
        return index;
      }, Date.now() + 60_000),
    );
    expect(await Promise.all(results)).toEqual(Array.from({ length: 300 }, (_, index) => index));
    expect(most).toBe(4);
  });
});
