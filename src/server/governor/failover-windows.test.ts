// Two replicas' governors on one shared store that goes away and comes back: while it is away each
// keeps its share of the limit starting from the last shared counts it saw, so the combined traffic
// never exceeds the limit; when it is back their own counts are added to the shared ones first.
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../observability/logger';
import { FailoverWindows } from './failover-windows';
import { Governor } from './governor';
import { createMemoryWindowStore, type WindowCounterStore } from './window-store';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 30);
const call = { id: 'event-types', method: 'GET', path: '/api/audit/v4/audits/event-types' };

/** A shared store that can be made unreachable, like Redis behind a broken network. */
function breakableStore() {
  const inner = createMemoryWindowStore();
  const state = { down: false };
  const check = () => {
    if (state.down) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
  };
  const store: WindowCounterStore = {
    async add(key, points, ttl) {
      check();
      return inner.add(key, points, ttl);
    },
    async read(keys) {
      check();
      return inner.read(keys);
    },
    async take(windows) {
      check();
      return inner.take(windows);
    },
  };
  return { store, state };
}

const opened: FailoverWindows[] = [];
afterEach(() => {
  for (const windows of opened.splice(0)) windows.close();
});

function replica(shared: ReturnType<typeof breakableStore>, clock: { now: number }) {
  const modes: string[] = [];
  const probes = { count: 0 };
  const windows = new FailoverWindows({
    primary: shared.store,
    probe: async () => {
      probes.count += 1;
      if (shared.state.down) throw new Error('still down');
    },
    logger: createLogger('silent'),
    replicas: 2,
    probeIntervalMs: 5,
    recoveryGraceMs: 20,
    onModeChange: (mode) => modes.push(mode),
    now: () => clock.now,
  });
  opened.push(windows);
  const governor = new Governor({
    tier: 'production',
    moduleRules: [],
    accountOverride: { MINUTE: 10 },
    now: () => clock.now,
    store: windows.shared,
    fallback: { store: windows.local, share: 2, active: () => windows.isFallback() },
  });
  const send = async (n: number) => {
    let sent = 0;
    for (let i = 0; i < n; i += 1) if ((await governor.acquire(call)) === undefined) sent += 1;
    return sent;
  };
  return { windows, governor, send, modes, probes };
}

/** Replicas A and B on one breakable store and one injected clock. */
function twoReplicas() {
  const clock = { now: T0 };
  const shared = breakableStore();
  return { clock, shared, a: replica(shared, clock), b: replica(shared, clock) };
}

describe('FailoverWindows', () => {
  it('shares one limit between replicas while the store is up', async () => {
    const { a, b } = twoReplicas();
    expect(await a.send(7)).toBe(7);
    expect(await b.send(7)).toBe(3);
    expect(a.windows.status()).toEqual({ mode: 'shared', since: null, reason: null });
  });

  it('falls back to limit ÷ replicas from the last shared counts, then shares again', async () => {
    const { clock, shared, a, b } = twoReplicas();
    expect(await a.send(4)).toBe(4);
    expect(await b.send(2)).toBe(2);

    shared.state.down = true;
    // A last saw 4 of 10, B 6 of 10: with a share of 5 each, A has 1 left and B none. The store
    // failing is never the caller's problem: it gets an answer either way.
    expect(await a.send(3)).toBe(1);
    expect(await b.send(3)).toBe(0);
    expect(a.windows.isFallback()).toBe(true);
    expect(a.windows.status()).toEqual({
      mode: 'fallback',
      since: T0,
      reason: 'connect ECONNREFUSED 127.0.0.1:6379',
    });
    expect((await a.governor.usage()).find((u) => u.ruleId === 'account-minute')).toMatchObject({
      limit: 5,
      used: 5,
    });
    expect(a.modes).toEqual(['fallback']);

    // A minute later the old counts have left the window: five each, ten in all.
    clock.now += 61_000;
    expect(await a.send(8)).toBe(5);
    expect(await b.send(8)).toBe(5);

    shared.state.down = false;
    // The grace period runs on the injected clock: probes that succeed keep the share until the
    // clock has moved past it.
    const answered = a.probes.count;
    await expect.poll(() => a.probes.count).toBeGreaterThan(answered + 10);
    expect(a.windows.isFallback()).toBe(true);
    clock.now += 20;
    await expect.poll(() => a.windows.isFallback() || b.windows.isFallback()).toBe(false);
    expect(a.modes).toEqual(['fallback', 'shared']);
    // Both replicas' own counts reached the shared store: the limit is spent for both.
    expect(await a.send(1)).toBe(0);
    expect(await b.send(1)).toBe(0);
    expect((await a.governor.usage()).find((u) => u.ruleId === 'account-minute')).toMatchObject({
      limit: 10,
      used: 10,
    });
    clock.now += 61_000;
    expect(await a.send(6)).toBe(6);
    expect(await b.send(6)).toBe(4);
  });

  it('answers check() and usage() from the share while the store is down', async () => {
    const clock = { now: T0 };
    const shared = breakableStore();
    const a = replica(shared, clock);
    expect(await a.send(5)).toBe(5);
    shared.state.down = true;
    expect(await a.governor.check(call)).toMatchObject({ reason: 'limit' });
    expect(a.governor.fallbackActive).toBe(true);
  });
});
