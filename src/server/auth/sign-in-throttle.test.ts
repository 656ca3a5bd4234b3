import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignInThrottle, type SignInAttempt } from './sign-in-throttle';

// rate-limiter-flexible's memory store reads Date.now(): move the clock instead of waiting.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2030-01-01T08:00:00Z'));
});
afterEach(() => vi.useRealTimers());

const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);

/** One wrong password, reserved before the check as the sign-in route does. */
async function fail(throttle: SignInThrottle, attempt: SignInAttempt): Promise<void> {
  const { reserved, waitSeconds } = await throttle.reserve(attempt);
  if (!reserved) throw new Error(`throttled for ${waitSeconds} s`);
  await throttle.recordFailure(reserved);
}

describe('SignInThrottle', () => {
  it('lets the first failures through, then makes each further one wait longer', async () => {
    const throttle = new SignInThrottle();
    const attempt = { username: 'admin', address: '192.0.2.1' };
    const waits: number[] = [];
    for (let failure = 1; failure <= 9; failure += 1) {
      expect(await throttle.secondsToWait(attempt)).toBe(0);
      await fail(throttle, attempt);
      const wait = await throttle.secondsToWait(attempt);
      waits.push(wait);
      advance(wait);
    }
    expect(waits).toEqual([0, 0, 1, 2, 4, 8, 16, 32, 60]);
  });

  it('locks the username for 15 minutes at the tenth failure', async () => {
    const throttle = new SignInThrottle();
    const attempt = { username: 'admin', address: '192.0.2.1' };
    for (let failure = 1; failure <= 10; failure += 1) {
      await fail(throttle, attempt);
      if (failure < 10) advance(await throttle.secondsToWait(attempt));
    }
    expect(await throttle.secondsToWait(attempt)).toBe(15 * 60);
    // The same name from another address is locked too: the account is what is guessed at.
    expect(await throttle.secondsToWait({ ...attempt, address: '198.51.100.2' })).toBe(15 * 60);
    advance(15 * 60);
    expect(await throttle.secondsToWait(attempt)).toBe(0);
  });

  it('treats an unknown username exactly like a real one', async () => {
    const throttle = new SignInThrottle();
    const known = { username: 'admin', address: '192.0.2.1' };
    const unknown = { username: 'no-such-user', address: '192.0.2.2' };
    for (let failure = 1; failure <= 4; failure += 1) {
      await fail(throttle, known);
      await fail(throttle, unknown);
      if (failure < 4) advance(await throttle.secondsToWait(known));
    }
    expect(await throttle.secondsToWait(unknown)).toBe(await throttle.secondsToWait(known));
  });

  it('locks an address that fails across many usernames', async () => {
    const throttle = new SignInThrottle();
    for (let n = 0; n < 30; n += 1) {
      await fail(throttle, { username: `user${n}`, address: '203.0.113.5' });
    }
    expect(await throttle.secondsToWait({ username: 'admin', address: '203.0.113.5' })).toBe(900);
    expect(await throttle.secondsToWait({ username: 'admin', address: '203.0.113.6' })).toBe(0);
  });

  it('forgets a username’s failures after it signs in, but not the address’s', async () => {
    const throttle = new SignInThrottle();
    const attempt = { username: 'admin', address: '192.0.2.1' };
    for (let n = 0; n < 3; n += 1) await fail(throttle, attempt);
    expect(await throttle.secondsToWait(attempt)).toBe(1);
    advance(1);
    const { reserved } = await throttle.reserve(attempt);
    await throttle.recordSuccess(reserved!);
    expect(await throttle.secondsToWait(attempt)).toBe(0);
    await fail(throttle, attempt);
    expect(await throttle.secondsToWait(attempt)).toBe(0);
  });

  it('counts parallel attempts before any is checked: no more than the policy get through', async () => {
    const throttle = new SignInThrottle();
    const attempt = { username: 'admin', address: '192.0.2.1' };
    const results = await Promise.all(Array.from({ length: 200 }, () => throttle.reserve(attempt)));
    expect(results.filter((result) => result.reserved).length).toBe(10);
    expect(results.every((result) => result.reserved || result.waitSeconds > 0)).toBe(true);
  });

  it('does not charge the address for attempts refused because one name is locked', async () => {
    const throttle = new SignInThrottle();
    const address = '192.0.2.1';
    for (let round = 0; round < 5; round += 1) {
      const results = await Promise.all(
        Array.from({ length: 50 }, () => throttle.reserve({ username: 'admin', address })),
      );
      await Promise.all(results.map((r) => (r.reserved ? throttle.recordFailure(r.reserved) : 0)));
    }
    // 250 guesses at admin, 10 of them counted: 20 more names may still try from the address.
    for (let n = 0; n < 20; n += 1) {
      expect(
        (await throttle.reserve({ username: `colleague${n}`, address })).reserved,
      ).toBeDefined();
    }
    expect((await throttle.reserve({ username: 'someone', address })).reserved).toBeUndefined();
  });
});
