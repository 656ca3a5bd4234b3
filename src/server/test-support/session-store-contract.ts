// What every session store promises, as one suite each store runs (memory, the database, Redis):
// unguessable ids, the idle and absolute expiry, background use that does not extend, a sign-out
// seen at once by every process sharing the store, and nothing stored a browser could present.
import { expect, it } from 'vitest';
import type { SessionStore } from '../auth/session-store';

const MINUTE = 60_000;
export const CONTRACT_IDLE_MS = 30 * MINUTE;
export const CONTRACT_MAX_AGE_MS = 8 * 60 * MINUTE;
const user = { username: 'admin', role: 'admin' as const };

/** Two processes' views of one store, on a clock the test moves. */
export interface SessionStorePair {
  readonly a: SessionStore;
  readonly b: SessionStore;
  /** Everything the store keeps, as text (absent for memory: nothing outlives the process). */
  readonly dump?: () => Promise<string>;
}

/** Builds a pair sharing one fresh store; idle and maximum age are the contract's. */
export type SessionStoreFactory = (clock: { now: number }) => Promise<SessionStorePair>;

/**
 * Registers the contract's tests inside the caller's describe block. `outlivesProcess`: the store
 * keeps records beyond the process (database, Redis), so what it keeps is inspected too.
 */
export function sessionStoreContract(
  factory: SessionStoreFactory,
  { outlivesProcess }: { outlivesProcess: boolean },
): void {
  it('creates unguessable 256-bit ids, unique per session', async () => {
    const { a } = await factory({ now: Date.now() });
    const ids = new Set<string>();
    for (let i = 0; i < 50; i += 1) ids.add((await a.create(user)).id);
    expect(ids.size).toBe(50);
    for (const id of ids) expect(Buffer.from(id, 'base64url')).toHaveLength(32);
  });

  it('ends a session after the idle time, and activity restarts the timer', async () => {
    const clock = { now: Date.now() };
    const { a, b } = await factory(clock);
    const start = clock.now;
    const { id } = await a.create(user);
    clock.now = start + 29 * MINUTE;
    expect(await b.touch(id)).toMatchObject({ id, username: 'admin' });
    clock.now = start + 58 * MINUTE;
    expect(await a.touch(id)).toBeDefined();
    clock.now = start + 88 * MINUTE;
    expect(await b.touch(id)).toBeUndefined();
    // Gone for good, even if time went backwards.
    clock.now = start + 60 * MINUTE;
    expect(await a.touch(id)).toBeUndefined();
  });

  it('does not restart the idle timer for background use', async () => {
    const clock = { now: Date.now() };
    const { a, b } = await factory(clock);
    const start = clock.now;
    const { id } = await a.create(user);
    clock.now = start + 20 * MINUTE;
    expect(await b.touch(id, { extend: false })).toBeDefined();
    clock.now = start + 29 * MINUTE;
    expect(await a.touch(id, { extend: false })).toBeDefined();
    clock.now = start + 31 * MINUTE;
    expect(await b.touch(id, { extend: false })).toBeUndefined();
  });

  it('ends a session at its maximum age however active it is', async () => {
    const clock = { now: Date.now() };
    const { a, b } = await factory(clock);
    const start = clock.now;
    const { id } = await a.create(user);
    for (clock.now = start; clock.now < start + CONTRACT_MAX_AGE_MS; clock.now += 20 * MINUTE) {
      expect(await b.touch(id)).toBeDefined();
    }
    expect(await a.touch(id)).toBeUndefined();
  });

  it('ends a signed-out session at once, for every process sharing the store', async () => {
    const { a, b } = await factory({ now: Date.now() });
    const { id } = await a.create(user);
    const other = await a.create(user);
    expect(await b.touch(id)).toBeDefined();
    await b.delete(id);
    expect(await a.touch(id)).toBeUndefined();
    expect(await b.touch(id)).toBeUndefined();
    expect(await a.touch(other.id)).toBeDefined();
  });

  it.skipIf(!outlivesProcess)('keeps nothing a browser could present: no session id', async () => {
    const { a, dump } = await factory({ now: Date.now() });
    const { id } = await a.create(user);
    await a.touch(id);
    const stored = await dump!();
    expect(stored).toContain('admin');
    expect(stored).not.toContain(id);
    expect(stored).not.toContain(Buffer.from(id, 'base64url').toString('hex'));
  });
}
