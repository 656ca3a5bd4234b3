import { describe, expect, it } from 'vitest';
import { MemorySessionStore } from './session-store';

const MINUTE = 60_000;
const user = { username: 'admin', role: 'admin' as const };

function store(clock: { now: number }, extra: { maxSessions?: number } = {}) {
  return new MemorySessionStore({
    idleMs: 30 * MINUTE,
    maxAgeMs: 8 * 60 * MINUTE,
    now: () => clock.now,
    ...extra,
  });
}

describe('MemorySessionStore', () => {
  it('creates unguessable 256-bit ids, unique per session', async () => {
    const sessions = store({ now: 0 });
    const ids = new Set<string>();
    for (let i = 0; i < 100; i += 1) ids.add((await sessions.create(user)).id);
    expect(ids.size).toBe(100);
    for (const id of ids) expect(Buffer.from(id, 'base64url')).toHaveLength(32);
  });

  it('ends a session after the idle time, and activity restarts the timer', async () => {
    const clock = { now: 0 };
    const sessions = store(clock);
    const { id } = await sessions.create(user);
    clock.now = 29 * MINUTE;
    expect(await sessions.touch(id)).toMatchObject({ username: 'admin' });
    clock.now = 58 * MINUTE;
    expect(await sessions.touch(id)).toBeDefined();
    clock.now = 88 * MINUTE;
    expect(await sessions.touch(id)).toBeUndefined();
    // Gone for good, even if time went backwards.
    clock.now = 60 * MINUTE;
    expect(await sessions.touch(id)).toBeUndefined();
  });

  it('ends a session at its maximum age however active it is', async () => {
    const clock = { now: 0 };
    const sessions = store(clock);
    const { id } = await sessions.create(user);
    for (clock.now = 0; clock.now < 8 * 60 * MINUTE; clock.now += 20 * MINUTE) {
      expect(await sessions.touch(id)).toBeDefined();
    }
    expect(await sessions.touch(id)).toBeUndefined();
  });

  it('ends a deleted session at once', async () => {
    const sessions = store({ now: 0 });
    const { id } = await sessions.create(user);
    await sessions.delete(id);
    expect(await sessions.touch(id)).toBeUndefined();
  });

  it('keeps memory bounded: beyond the limit the least recently used session ends', async () => {
    const sessions = store({ now: 0 }, { maxSessions: 3 });
    const [a, b, c] = [
      await sessions.create(user),
      await sessions.create(user),
      await sessions.create(user),
    ];
    await sessions.touch(a.id);
    await sessions.create(user);
    expect(sessions.size).toBe(3);
    expect(await sessions.touch(b.id)).toBeUndefined();
    expect(await sessions.touch(a.id)).toBeDefined();
    expect(await sessions.touch(c.id)).toBeDefined();
  });

  it('sweeps expired sessions when new ones are created', async () => {
    const clock = { now: 0 };
    const sessions = store(clock);
    for (let i = 0; i < 5; i += 1) await sessions.create(user);
    clock.now = 31 * MINUTE;
    await sessions.create(user);
    expect(sessions.size).toBe(1);
  });
});
