// Where the governor's window counters live. One process keeps them in a map in its memory;
// several replicas share them in Redis (REDIS_URL), where one acquire is one Lua script: it reads
// every bucket of every window the call counts against and raises them all, or none, in a single
// round trip that no other replica can interleave with.
import type { RedisClient } from '../redis/redis-connection';

/** One window of an atomic take: its bucket counters and its limit. */
export interface WindowTake {
  /** The window's bucket counters, oldest first; the last one is the bucket counted into. */
  readonly keys: readonly string[];
  /** The most the keys may hold together after the take, or null to count without checking. */
  readonly limit: number | null;
  /** How long a counter created by the take lives. */
  readonly ttlSeconds: number;
}

/** What an atomic take found, and whether it counted. */
export interface WindowTakeResult {
  /** True when every window had room and each one's last counter was raised by one. */
  readonly taken: boolean;
  /** Each window's counter values before the take, in the order of its keys. */
  readonly counts: readonly (readonly number[])[];
}

/** Atomic counters with an expiry: all the governor needs from a store. */
export interface WindowCounterStore {
  /**
   * Adds `points` (negative to give some back) to the counter `key`, creating it to live
   * `ttlSeconds` when it does not exist; resolves to the counter's new value. Atomic: concurrent
   * adds never lose an update.
   */
  add(key: string, points: number, ttlSeconds: number): Promise<number>;
  /** The current values of `keys`, in order; 0 for a counter that does not exist or expired. */
  read(keys: readonly string[]): Promise<number[]>;
  /**
   * Takes one request from several windows at once: when every window with a limit has room for
   * one more, raises every window's last counter by one; otherwise changes nothing. Atomic: no
   * other take, add or read of the store happens in between, so concurrent callers can never
   * share the last slot and a refusal never has anything to give back.
   */
  take(windows: readonly WindowTake[]): Promise<WindowTakeResult>;
}

/** The single-process store, with `set` for a mirror of another store's values. */
export interface MemoryWindowStore extends WindowCounterStore {
  /** Overwrites `key` with `value`, to live `ttlSeconds`. */
  set(key: string, value: number, ttlSeconds: number): void;
}

// How often the memory store drops expired counters nobody reads again.
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The single-process store: counters in this process's memory. Every method does its work
 * without awaiting anything in between, which is what makes `take` atomic in one process. Expiry
 * reads the real clock: it only cleans up counters long after they left their window (see
 * sliding-window.ts), it never decides a request.
 */
export function createMemoryWindowStore(): MemoryWindowStore {
  const counters = new Map<string, { value: number; expiresAt: number }>();
  let nextSweep = Date.now() + SWEEP_INTERVAL_MS;
  const value = (key: string, now: number) => {
    const counter = counters.get(key);
    return counter && counter.expiresAt > now ? counter.value : 0;
  };
  const add = (key: string, points: number, ttlSeconds: number, now: number) => {
    const counter = counters.get(key);
    if (counter && counter.expiresAt > now) {
      counter.value += points;
      return counter.value;
    }
    counters.set(key, { value: points, expiresAt: now + ttlSeconds * 1_000 });
    return points;
  };
  const sweep = (now: number) => {
    if (now < nextSweep) return;
    nextSweep = now + SWEEP_INTERVAL_MS;
    for (const [key, counter] of counters) if (counter.expiresAt <= now) counters.delete(key);
  };
  return {
    async add(key, points, ttlSeconds) {
      const now = Date.now();
      sweep(now);
      return add(key, points, ttlSeconds, now);
    },
    async read(keys) {
      const now = Date.now();
      return keys.map((key) => value(key, now));
    },
    async take(windows) {
      const now = Date.now();
      sweep(now);
      const counts = windows.map((window) => window.keys.map((key) => value(key, now)));
      const taken = windows.every(
        (window, index) => window.limit === null || sum(counts[index] ?? []) + 1 <= window.limit,
      );
      if (taken) {
        for (const window of windows) add(window.keys.at(-1) ?? '', 1, window.ttlSeconds, now);
      }
      return { taken, counts };
    },
    set(key, newValue, ttlSeconds) {
      counters.set(key, { value: newValue, expiresAt: Date.now() + ttlSeconds * 1_000 });
    },
  };
}

// KEYS: every window's counters, one window after another, each window's bucket counted into
// last. ARGV: the number of windows, then per window its number of keys, its limit (-1: count
// without checking) and the expiry of a counter it creates. Returns 1 or 0 (taken or not), then
// every key's value before the take. A new counter gets its expiry; an existing one keeps its own.
const TAKE_SCRIPT = `
local values = redis.call('MGET', unpack(KEYS))
local result = { 1 }
for i = 1, #KEYS do result[i + 1] = tonumber(values[i]) or 0 end
local windows = tonumber(ARGV[1])
local last, ttls = {}, {}
local at = 0
for w = 1, windows do
  local size = tonumber(ARGV[w * 3 - 1])
  local limit = tonumber(ARGV[w * 3])
  local used = 0
  for i = at + 1, at + size do used = used + result[i + 1] end
  if limit >= 0 and used + 1 > limit then result[1] = 0 end
  at = at + size
  last[w] = KEYS[at]
  ttls[w] = ARGV[w * 3 + 1]
end
if result[1] == 1 then
  for w = 1, windows do
    if redis.call('INCR', last[w]) == 1 then redis.call('EXPIRE', last[w], ttls[w]) end
  end
end
return result
`;

// KEYS[1]: the counter. ARGV: points, expiry of a new counter. Returns the new value.
const ADD_SCRIPT = `
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return value
`;

/** The scripts, once per connection (ioredis sends EVALSHA, and the script body when Redis lacks it). */
interface WindowScripts {
  governorTake(...args: Array<string | number>): Promise<number[]>;
  governorAdd(...args: Array<string | number>): Promise<number>;
}

function withScripts(redis: RedisClient): RedisClient & WindowScripts {
  const scripted = redis as RedisClient & Partial<WindowScripts>;
  if (!scripted.governorTake) redis.defineCommand('governorTake', { lua: TAKE_SCRIPT });
  if (!scripted.governorAdd)
    redis.defineCommand('governorAdd', { lua: ADD_SCRIPT, numberOfKeys: 1 });
  return redis as RedisClient & WindowScripts;
}

/**
 * The replicas' shared store: counters in Redis, named `<keyPrefix>:<key>` and holding plain
 * integers. Rejects at once while the connection is not ready (instead of queueing), so the
 * governor can fall back to its per-replica share without waiting (failover-windows.ts).
 */
export function createRedisWindowStore(redis: RedisClient, keyPrefix: string): WindowCounterStore {
  const scripts = withScripts(redis);
  const named = (key: string) => `${keyPrefix}:${key}`;
  const ready = () => {
    if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
  };
  return {
    async add(key, points, ttlSeconds) {
      ready();
      return Number(await scripts.governorAdd(named(key), points, ttlSeconds));
    },
    async read(keys) {
      ready();
      if (keys.length === 0) return [];
      const values = await redis.mget(keys.map(named));
      return values.map((value) => Number(value ?? 0));
    },
    async take(windows) {
      ready();
      if (windows.every((window) => window.keys.length === 0)) {
        return { taken: true, counts: windows.map(() => []) };
      }
      const keys = windows.flatMap((window) => window.keys.map(named));
      const args = windows.flatMap((window) => [
        window.keys.length,
        window.limit ?? -1,
        window.ttlSeconds,
      ]);
      const [taken, ...values] = await scripts.governorTake(
        keys.length,
        ...keys,
        windows.length,
        ...args,
      );
      let at = 0;
      const counts = windows.map((window) => {
        const slice = values.slice(at, at + window.keys.length).map(Number);
        at += window.keys.length;
        return slice;
      });
      return { taken: taken === 1, counts };
    },
  };
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
