// What every session store promises, as one suite each store runs (memory, the database, Redis):
// unguessable ids, the idle and absolute expiry, background use that does not extend, a sign-out
// seen at once by every process sharing the store, nothing stored a browser could present, how a
// session began kept with it, sessions listed by a handle that is not their id, and sessions
// ended from outside (by provider session, person, username or handle).
import { expect, it } from 'vitest';
import type { NewSessionDetails, SessionStore } from '../auth/session-store';

const MINUTE = 60_000;
export const CONTRACT_IDLE_MS = 30 * MINUTE;
export const CONTRACT_MAX_AGE_MS = 8 * 60 * MINUTE;
const user = { username: 'admin', role: 'admin' as const };
const password: NewSessionDetails = { method: 'password', userVersion: 'v1' };
const issuer = 'https://idp.example';

/** A provider sign-in of `sub` in the provider session `sid`. */
function viaProvider(sub: string, sid: string): NewSessionDetails {
  return {
    method: 'provider',
    role: 'support',
    name: 'Bo Berg',
    email: 'bo@example.com',
    userAgent: 'Firefox on Windows',
    provider: { issuer, sub, sid, authTime: 1_700_000_000_000, idToken: 'header.claims.sig' },
  };
}

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
    for (let i = 0; i < 50; i += 1) ids.add((await a.create(user, password)).id);
    expect(ids.size).toBe(50);
    for (const id of ids) expect(Buffer.from(id, 'base64url')).toHaveLength(32);
  });

  it('ends a session after the idle time, and activity restarts the timer', async () => {
    const clock = { now: Date.now() };
    const { a, b } = await factory(clock);
    const start = clock.now;
    const { id } = await a.create(user, password);
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
    const { id } = await a.create(user, password);
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
    const { id } = await a.create(user, password);
    for (clock.now = start; clock.now < start + CONTRACT_MAX_AGE_MS; clock.now += 20 * MINUTE) {
      expect(await b.touch(id)).toBeDefined();
    }
    expect(await a.touch(id)).toBeUndefined();
  });

  it('ends a signed-out session at once, for every process sharing the store', async () => {
    const { a, b } = await factory({ now: Date.now() });
    const { id } = await a.create(user, password);
    const other = await a.create(user, password);
    expect(await b.touch(id)).toBeDefined();
    await b.delete(id);
    expect(await a.touch(id)).toBeUndefined();
    expect(await b.touch(id)).toBeUndefined();
    expect(await a.touch(other.id)).toBeDefined();
  });

  it('keeps how a session began, as every process sharing the store reads it', async () => {
    const { a, b } = await factory({ now: Date.now() });
    const bo = { username: 'bo', role: 'support' as const };
    const created = await a.create(bo, viaProvider('sub-bo', 'sid-1'));
    const expected = { username: 'bo', handle: created.handle, ...viaProvider('sub-bo', 'sid-1') };
    expect(await b.touch(created.id)).toEqual({
      ...expected,
      id: created.id,
      createdAt: created.createdAt,
      lastSeenAt: created.lastSeenAt,
    });
    const { id } = await a.create(user, password);
    expect(await b.touch(id)).toMatchObject({ method: 'password', userVersion: 'v1' });
  });

  it('keeps the roles a provider sign-in gave in named connections, for every process', async () => {
    const { a, b } = await factory({ now: Date.now() });
    const details: NewSessionDetails = {
      ...viaProvider('sub-ann', 'sid-1'),
      connectionRoles: { uat: 'admin' },
    };
    const { role: _console, ...connectionsOnly } = details;
    const ann = await a.create({ username: 'ann' }, details);
    const una = await a.create({ username: 'una' }, connectionsOnly);
    expect(await b.touch(ann.id)).toMatchObject({
      role: 'support',
      connectionRoles: { uat: 'admin' },
    });
    const read = await b.touch(una.id);
    expect(read).toMatchObject({ connectionRoles: { uat: 'admin' } });
    expect(read?.role).toBeUndefined();
  });

  it('lists live sessions newest first, by a handle that is not their id', async () => {
    const clock = { now: Date.now() };
    const { a, b } = await factory(clock);
    const start = clock.now;
    const first = await a.create(user, password);
    clock.now += 1_000;
    const bo = await a.create({ username: 'bo' }, viaProvider('sub-bo', 'sid-1'));
    clock.now += 1_000;
    const second = await a.create(user, { ...password, userAgent: 'Chromium on Linux' });
    const listed = await b.list();
    expect(listed.map((session) => session.handle)).toEqual([
      second.handle,
      bo.handle,
      first.handle,
    ]);
    for (const [n, session] of [second, bo, first].entries()) {
      expect(listed[n]).toMatchObject({ id: session.handle, username: session.username });
      expect(session.handle).not.toBe(session.id);
      expect(JSON.stringify(listed)).not.toContain(session.id);
    }
    expect(listed[0]).toMatchObject({ method: 'password', userAgent: 'Chromium on Linux' });
    expect(listed[1]).toMatchObject({
      method: 'provider',
      role: 'support',
      email: 'bo@example.com',
    });
    expect((await a.list({ username: 'bo' })).map((session) => session.handle)).toEqual([
      bo.handle,
    ]);
    // Ended and expired sessions are not listed.
    await a.delete(second.id);
    clock.now = start + 30 * MINUTE + 500;
    expect((await b.list()).map((session) => session.handle)).toEqual([bo.handle]);
  });

  it('ends sessions from outside: by provider session, by person, by username, by handle', async () => {
    const { a, b } = await factory({ now: Date.now() });
    const bo = { username: 'bo', role: 'support' as const };
    const laptop = await a.create(bo, viaProvider('sub-bo', 'sid-1'));
    const phone = await a.create(bo, viaProvider('sub-bo', 'sid-2'));
    const other = await a.create({ username: 'cy' }, viaProvider('sub-cy', 'sid-1'));
    const admin1 = await a.create(user, password);
    const admin2 = await a.create(user, password);

    expect(await b.endWhere({ issuer, sid: 'sid-1', sub: 'sub-bo' })).toEqual([laptop.handle]);
    expect(await a.touch(laptop.id)).toBeUndefined();
    expect(await a.touch(phone.id)).toBeDefined();
    expect(await b.endWhere({ issuer: 'https://other.example', sub: 'sub-bo' })).toEqual([]);
    expect(await b.endWhere({ issuer, sub: 'sub-bo' })).toEqual([phone.handle]);
    expect(await a.touch(phone.id)).toBeUndefined();
    expect(await a.touch(other.id)).toBeDefined();

    expect(await b.endWhere({ handle: admin1.handle })).toEqual([admin1.handle]);
    expect(await a.touch(admin1.id)).toBeUndefined();
    expect(await a.touch(admin2.id)).toBeDefined();
    expect(await b.endWhere({ username: 'cy' })).toEqual([other.handle]);
    expect(await b.endWhere({ username: 'admin' })).toEqual([admin2.handle]);
    expect(await a.touch(admin2.id)).toBeUndefined();
    expect(await b.list()).toEqual([]);
    await expect(b.endWhere({})).rejects.toThrow(/at least one/);
  });

  it.skipIf(!outlivesProcess)('keeps nothing a browser could present: no session id', async () => {
    const { a, dump } = await factory({ now: Date.now() });
    const { id } = await a.create(user, password);
    await a.touch(id);
    await a.list();
    const stored = await dump!();
    expect(stored).toContain('admin');
    expect(stored).not.toContain(id);
    expect(stored).not.toContain(Buffer.from(id, 'base64url').toString('hex'));
  });
}
