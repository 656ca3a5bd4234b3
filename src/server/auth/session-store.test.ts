import { describe, expect, it } from 'vitest';
import {
  CONTRACT_IDLE_MS,
  CONTRACT_MAX_AGE_MS,
  sessionStoreContract,
} from '../test-support/session-store-contract';
import { MemorySessionStore } from './session-store';

const MINUTE = 60_000;
const user = { username: 'admin', role: 'admin' as const };
const password = { method: 'password' as const };

function store(clock: { now: number }, extra: { maxSessions?: number } = {}) {
  return new MemorySessionStore({
    idleMs: CONTRACT_IDLE_MS,
    maxAgeMs: CONTRACT_MAX_AGE_MS,
    now: () => clock.now,
    ...extra,
  });
}

describe('MemorySessionStore', () => {
  sessionStoreContract(
    async (clock) => {
      const shared = store(clock);
      return { a: shared, b: shared };
    },
    { outlivesProcess: false },
  );

  it('keeps memory bounded: beyond the limit the least recently used session ends', async () => {
    const sessions = store({ now: 0 }, { maxSessions: 3 });
    const [a, b, c] = [
      await sessions.create(user, password),
      await sessions.create(user, password),
      await sessions.create(user, password),
    ];
    await sessions.touch(a.id);
    await sessions.create(user, password);
    expect(sessions.size).toBe(3);
    expect(await sessions.touch(b.id)).toBeUndefined();
    expect(await sessions.touch(a.id)).toBeDefined();
    expect(await sessions.touch(c.id)).toBeDefined();
  });

  it('sweeps expired sessions when new ones are created', async () => {
    const clock = { now: 0 };
    const sessions = store(clock);
    for (let i = 0; i < 5; i += 1) await sessions.create(user, password);
    clock.now = 31 * MINUTE;
    await sessions.create(user, password);
    expect(sessions.size).toBe(1);
  });
});
