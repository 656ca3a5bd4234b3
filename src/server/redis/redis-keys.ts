// Every Redis key and channel name of one console deployment, in one place. They all start with
// one hash tag, `{console:<account>}`, so Redis Cluster puts every key of a deployment in the same
// slot: the governor's acquire script, which reads and raises several windows' counters at once,
// and the multi-key MGET and DEL calls run on one node, as they must on a cluster. On a single
// Redis the braces are just characters of the name.
import { createHash } from 'node:crypto';

/**
 * One namespace per upstream account (base URL and client id), so two consoles on one Redis for
 * different accounts never share a limit, and every replica of one console shares them all.
 */
export function redisNamespace(upstreamBaseUrl: string, clientId: string): string {
  const account = createHash('sha256').update(`${upstreamBaseUrl}\n${clientId}`).digest('hex');
  return `console:${account.slice(0, 16)}`;
}

/** The names a deployment uses; each starts with the deployment's hash tag. */
export interface RedisKeys {
  /** `{<namespace>}`: the hash tag every name below starts with. */
  readonly tag: string;
  /** Prefix of the governor's window counters (`<prefix>:<rule>:<period>:<bucket>`). */
  readonly governor: string;
  /** The stored block of an upstream 429: the account's, or one rule's. */
  block(scope: 'account' | 'rule', ruleId?: string | null): string;
  /** The pub/sub channel blocks are announced on. */
  readonly blocksChannel: string;
  /** A console session, by the hash of its id (never the id itself). */
  session(idHash: string): string;
  /**
   * The sorted set of every session's hash, scored by its latest possible end (maximum age), so
   * sessions can be listed and ended by person on a cluster too (no SCAN across nodes).
   */
  readonly sessionIndex: string;
  /** A back-channel logout token's `jti`, by its hash, once seen (replays are refused). */
  logoutToken(jtiHash: string): string;
  /** Prefix of a rate-limiter-flexible limiter's keys (sign-in throttle, ingest limiter). */
  limiter(name: string): string;
  /** A key read to check that the deployment's own slot answers (readiness, fallback probe). */
  readonly probe: string;
}

/** The names for `namespace` (redisNamespace, or a test's own). */
export function redisKeys(namespace: string): RedisKeys {
  if (/[{}]/.test(namespace)) throw new Error('a Redis namespace cannot contain braces');
  const tag = `{${namespace}}`;
  return {
    tag,
    governor: `${tag}:governor`,
    block: (scope, ruleId) => `${tag}:block:${scope === 'account' ? 'account' : `rule:${ruleId}`}`,
    blocksChannel: `${tag}:blocks`,
    session: (idHash) => `${tag}:session:${idHash}`,
    sessionIndex: `${tag}:sessions`,
    logoutToken: (jtiHash) => `${tag}:logout-token:${jtiHash}`,
    limiter: (name) => `${tag}:${name}`,
    probe: `${tag}:probe`,
  };
}
