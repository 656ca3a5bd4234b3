// What REDIS_URL names: one Redis server, or the seed nodes of a Redis Cluster. A cluster is
// written `redis+cluster://[user:password@]host1:6379,host2:6379` (`rediss+cluster://` for TLS),
// or as a plain `redis://` / `rediss://` URL with REDIS_CLUSTER=true; any one reachable seed is
// enough, the client learns the other nodes from it. Parsed in one place, so configuration
// validation and the connection read the URL the same way. Messages never repeat a password.

/** One seed node of a cluster. */
export interface RedisNode {
  readonly host: string;
  readonly port: number;
}

/** One server (the URL as ioredis reads it), or a cluster's seeds and credentials. */
export type RedisTarget =
  | { readonly kind: 'single'; readonly url: string }
  | {
      readonly kind: 'cluster';
      readonly nodes: readonly RedisNode[];
      readonly username?: string;
      readonly password?: string;
      readonly tls: boolean;
    };

/** REDIS_URL does not name a Redis or a cluster; the message follows the variable's name. */
export class RedisUrlError extends Error {
  override name = 'RedisUrlError';
}

const DEFAULT_PORT = 6379;
const URL_SHAPE = /^(rediss?)(\+cluster)?:\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/;
const NODE_SHAPE = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+))(?::(\d{1,5}))?$/;

function parseNode(text: string, position: number): RedisNode {
  const match = NODE_SHAPE.exec(text);
  const port = match?.[3] === undefined ? DEFAULT_PORT : Number(match[3]);
  if (!match || port < 1 || port > 65_535) {
    // The node is named by its place, not its text: an unescaped "@" in a password would put
    // part of the password there.
    throw new RedisUrlError(
      `lists a node that is not host:port (node ${position}); write redis+cluster://host1:6379,host2:6379 and percent-encode the password`,
    );
  }
  return { host: match[1] ?? match[2] ?? '', port };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new RedisUrlError('has badly escaped credentials (percent-encode them)');
  }
}

/**
 * Reads REDIS_URL (and REDIS_CLUSTER). Throws RedisUrlError, whose message completes
 * "REDIS_URL …", for anything else.
 */
export function parseRedisTarget(url: string, clusterFlag = false): RedisTarget {
  const shape = URL_SHAPE.exec(url.trim());
  if (!shape) {
    throw new RedisUrlError(
      'must be a redis:// or rediss:// URL, or redis+cluster://host1:6379,host2:6379 for a Redis Cluster',
    );
  }
  const [, scheme, clusterScheme, userinfo, hosts = '', path = '', query = ''] = shape;
  const cluster = clusterScheme !== undefined || clusterFlag;
  if (!cluster) {
    if (hosts.includes(',')) {
      throw new RedisUrlError(
        'lists several hosts: for a Redis Cluster write redis+cluster://host1:6379,host2:6379 (or set REDIS_CLUSTER=true)',
      );
    }
    try {
      new URL(url);
    } catch {
      throw new RedisUrlError('must be a redis:// or rediss:// URL');
    }
    return { kind: 'single', url };
  }
  if (hosts === '') throw new RedisUrlError('names no cluster node (host:port)');
  if (path !== '' && path !== '/' && path !== '/0') {
    throw new RedisUrlError('names a database, but a Redis Cluster has only database 0');
  }
  if (query !== '') throw new RedisUrlError('has query options, which a cluster URL does not take');
  const nodes = hosts.split(',').map((node, index) => parseNode(node.trim(), index + 1));
  let username: string | undefined;
  let password: string | undefined;
  if (userinfo !== undefined && userinfo !== '') {
    const colon = userinfo.indexOf(':');
    username = decode(colon === -1 ? userinfo : userinfo.slice(0, colon)) || undefined;
    password = colon === -1 ? undefined : decode(userinfo.slice(colon + 1)) || undefined;
  }
  return {
    kind: 'cluster',
    nodes,
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    tls: scheme === 'rediss',
  };
}

/** Where a target points, without credentials: `host:port/db`, or the cluster's seeds. */
export function describeRedisTarget(target: RedisTarget): string {
  if (target.kind === 'cluster') {
    const nodes = target.nodes.map(({ host, port }) =>
      host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`,
    );
    return `the Redis Cluster in REDIS_URL (tried ${nodes.join(', ')})`;
  }
  try {
    const parsed = new URL(target.url);
    const db = parsed.pathname.replace(/^\//, '') || '0';
    return `Redis at ${parsed.hostname || 'localhost'}:${parsed.port || String(DEFAULT_PORT)}/${db}`;
  } catch {
    return 'Redis at an unreadable REDIS_URL';
  }
}
