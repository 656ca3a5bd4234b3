// Every Redis key and channel name of one console deployment, in one place, in two families: the
// console-wide keys (sessions, the sign-in throttle, integration reports) under one hash tag, and
// each platform connection's keys (the governor's windows, blocks, their channel) under a hash tag
// of its own that names the connection. A hash tag makes Redis Cluster put every key of a family in
// one slot: the governor's acquire script, which reads and raises several windows' counters at
// once, and the multi-key MGET and DEL calls run on one node, as they must on a cluster; and an
// operator reading the keys sees which connection each belongs to. On a single Redis the braces are
// just characters of the name.
import { createHash, createHmac } from 'node:crypto';
import type { Config } from '../config/config';
import type { ConnectionConfig } from '../config/connection-config';
import { DEFAULT_CONNECTION } from '../../shared/connections';

/** The first 16 hex digits of a digest: names apart, without spelling what was hashed. */
const short = (digest: string) => digest.slice(0, 16);

/**
 * The console-wide namespace, derived from SESSION_SECRET. Every replica sharing Redis must have
 * the same secret (config.ts refuses REDIS_URL without one), so they all agree on it; it does not
 * move when a connection is added, removed, reordered or re-pointed, as anything derived from an
 * account would; and sessions are bound to the secret anyway (it signs their cookies), so a new
 * secret, which ends every session, also leaves the old ones behind to expire. Two consoles on one
 * Redis must have different secrets (with the same one, each would accept the other's cookies).
 * An HMAC under the secret: a key name gives a reader of Redis nothing a cookie's signature does
 * not already give.
 */
export function consoleNamespace(sessionSecret: string): string {
  return `console-wide:${short(createHmac('sha256', sessionSecret).update('redis-namespace').digest('hex'))}`;
}

/**
 * One connection's namespace: its name and a hash of its account (base URL and client id), so two
 * consoles on one Redis never share a connection's limits unless they name the same account the
 * same way. `default` keeps the name the single connection had before connections existed
 * (`console:<account>`): an upgraded console's windows and blocks go on counting where they were,
 * and replicas of the old and the new release share one budget during a rolling update.
 */
export function connectionNamespace(connection: string, account: string, clientId: string): string {
  const hash = short(createHash('sha256').update(`${account}\n${clientId}`).digest('hex'));
  return connection === DEFAULT_CONNECTION ? `console:${hash}` : `console:${connection}:${hash}`;
}

/** Names shared by both families. */
interface TaggedKeys {
  /** `{<namespace>}`: the hash tag every name below starts with. */
  readonly tag: string;
  /** A key read to check that the family's own slot answers (readiness, fallback probe). */
  readonly probe: string;
}

/** The console-wide names: everything that belongs to the console, not to one platform account. */
export interface ConsoleRedisKeys extends TaggedKeys {
  /** A console session, by the hash of its id (never the id itself). */
  session(idHash: string): string;
  /**
   * The sorted set of every session's hash, scored by its latest possible end (maximum age), so
   * sessions can be listed and ended by person on a cluster too (no SCAN across nodes).
   */
  readonly sessionIndex: string;
  /** A back-channel logout token's `jti`, by its hash, once seen (replays are refused). */
  logoutToken(jtiHash: string): string;
  /**
   * Prefix of a rate-limiter-flexible limiter's keys: the sign-in throttle, and the ingest limiter
   * (its allowance is per integration key, which protects the console, not a platform account).
   */
  limiter(name: string): string;
}

/** One connection's names: what belongs to its platform account. */
export interface ConnectionRedisKeys extends TaggedKeys {
  /** Prefix of the governor's window counters (`<prefix>:<rule>:<period>:<bucket>`). */
  readonly governor: string;
  /** The stored block of an upstream 429: the account's, or one rule's. */
  block(scope: 'account' | 'rule', ruleId?: string | null): string;
  /** The pub/sub channel blocks are announced on. */
  readonly blocksChannel: string;
}

/** The hash tag of `namespace`, which cannot hold braces (they would end the tag early). */
function tagOf(namespace: string): string {
  if (/[{}]/.test(namespace)) throw new Error('a Redis namespace cannot contain braces');
  return `{${namespace}}`;
}

/** The console-wide names under `namespace` (consoleNamespace, or a test's own). */
export function consoleRedisKeys(namespace: string): ConsoleRedisKeys {
  const tag = tagOf(namespace);
  return {
    tag,
    probe: `${tag}:probe`,
    session: (idHash) => `${tag}:session:${idHash}`,
    sessionIndex: `${tag}:sessions`,
    logoutToken: (jtiHash) => `${tag}:logout-token:${jtiHash}`,
    limiter: (name) => `${tag}:${name}`,
  };
}

/** One connection's names under `namespace` (connectionNamespace, or a test's own). */
export function connectionRedisKeys(namespace: string): ConnectionRedisKeys {
  const tag = tagOf(namespace);
  return {
    tag,
    probe: `${tag}:probe`,
    governor: `${tag}:governor`,
    block: (scope, ruleId) => `${tag}:block:${scope === 'account' ? 'account' : `rule:${ruleId}`}`,
    blocksChannel: `${tag}:blocks`,
  };
}

/** The console-wide names of the console `config` describes. */
export function consoleKeys(config: Pick<Config, 'auth'>): ConsoleRedisKeys {
  return consoleRedisKeys(consoleNamespace(config.auth.sessionSecret));
}

/**
 * The names of `connection` of the console `config` describes. Its account is its base URL,
 * except in demo mode, where the built-in mock listens on a new loopback port at every start, so
 * its URL would move the keys to a new namespace at each restart: demo mode names the account by
 * the session secret instead (the same on every replica, kept across restarts; only a hash of it
 * reaches Redis), and the connection's name keeps its two mock connections apart.
 */
export function connectionKeys(
  config: Pick<Config, 'mode' | 'auth'>,
  connection: Pick<ConnectionConfig, 'name' | 'upstream' | 'oauth'>,
): ConnectionRedisKeys {
  const account =
    config.mode === 'demo' ? `demo\n${config.auth.sessionSecret}` : connection.upstream.baseUrl;
  if (account === undefined) throw new Error(`connection ${connection.name} has no base URL`);
  return connectionRedisKeys(
    connectionNamespace(connection.name, account, connection.oauth.clientId),
  );
}
