// The database engines the store suites run against: SQLite always, PostgreSQL when
// TEST_DATABASE_URL names a server (scripts/start-test-services.sh starts one; .ci/run always
// does). Likewise the Redis engines the scale-out suites run against: one server
// (TEST_REDIS_URL) and a three-master Redis Cluster (TEST_REDIS_CLUSTER_URL). Each PostgreSQL database a test opens lives in its own fresh schema, so test files
// running in parallel never see each other's rows.
import { randomBytes } from 'node:crypto';
import { Cluster } from 'ioredis';
import pg from 'pg';
import type { RedisClient } from '../redis/redis-connection';
import { openDatabase, type SqlDatabase } from '../store/database';
import type { Migration } from '../store/migrations';
import { openPostgresDatabase } from '../store/postgres-database';

/** The PostgreSQL server for tests, if any. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/** The Redis server for tests, if any. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/** The seeds of a Redis Cluster for tests (redis+cluster://host1:port1,…), if any. */
export const TEST_REDIS_CLUSTER_URL = process.env.TEST_REDIS_CLUSTER_URL || undefined;

/** What a skipped suite says about how to run it. */
export const NEEDS_SERVICES =
  'start the services with: eval "$(scripts/start-test-services.sh)" (.ci/run always does)';

/** Whether the scale-out suites can run: they need both a Redis and a PostgreSQL. */
export const SCALE_OUT_SERVICES = TEST_DATABASE_URL !== undefined && TEST_REDIS_URL !== undefined;

/** A scale-out suite's title, saying why it is skipped when the services are missing. */
export function scaleOutTitle(title: string): string {
  return SCALE_OUT_SERVICES
    ? title
    : `${title} (skipped: TEST_REDIS_URL and TEST_DATABASE_URL are not both set; ${NEEDS_SERVICES})`;
}

/** One engine the store suites run on. */
export interface StoreEngine {
  readonly name: 'SQLite' | 'PostgreSQL';
  /** False when the engine's server is not configured: the suite is skipped, saying why. */
  readonly available: boolean;
  /** The suite's title, with how to enable it when it is skipped. */
  readonly title: string;
  /** A fresh, migrated, empty database. */
  open(options?: { migrations?: readonly Migration[] }): Promise<TestDatabase>;
}

/** A database opened for a test: close() also removes it. */
export interface TestDatabase extends SqlDatabase {
  /** The URL of its schema (PostgreSQL), for a second pool — a second replica — on it. */
  readonly url?: string;
}

/** `url` with its connections' search_path set to `schema`. */
function withSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

/** Creates an empty schema on the test server; resolves to its URL and a way to drop it. */
export async function createTestSchema(
  url: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  return {
    url: withSchema(url, schema),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

const sqlite: StoreEngine = {
  name: 'SQLite',
  available: true,
  title: 'SQLite',
  open: (options = {}) =>
    openDatabase(options.migrations ? { migrations: options.migrations } : {}),
};

const postgres: StoreEngine = {
  name: 'PostgreSQL',
  available: TEST_DATABASE_URL !== undefined,
  title: TEST_DATABASE_URL
    ? 'PostgreSQL'
    : `PostgreSQL (skipped: TEST_DATABASE_URL is not set; ${NEEDS_SERVICES})`,
  async open(options = {}) {
    if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
    const schema = await createTestSchema(TEST_DATABASE_URL);
    const db = await openPostgresDatabase({
      url: schema.url,
      ...(options.migrations ? { migrations: options.migrations } : {}),
    });
    return {
      ...db,
      url: schema.url,
      async close() {
        await db.close();
        await schema.drop();
      },
    };
  },
};

/** Every engine, available or not: run a suite with `describe.each` and skip the unavailable. */
export const STORE_ENGINES: readonly StoreEngine[] = [sqlite, postgres];

/** One Redis deployment the scale-out suites run on. */
export interface RedisEngine {
  readonly name: 'Redis' | 'Redis Cluster';
  /** Its REDIS_URL, when its server is configured; the suite is skipped otherwise. */
  readonly url: string | undefined;
  /** The suite's title, with how to enable it when it is skipped. */
  readonly title: string;
}

function redisEngine(name: RedisEngine['name'], variable: string, url: string | undefined) {
  return {
    name,
    url,
    title: url ? name : `${name} (skipped: ${variable} is not set; ${NEEDS_SERVICES})`,
  };
}

/** One Redis and a Redis Cluster: run a suite with `describe.each`, skipping the unavailable. */
export const REDIS_ENGINES: readonly RedisEngine[] = [
  redisEngine('Redis', 'TEST_REDIS_URL', TEST_REDIS_URL),
  redisEngine('Redis Cluster', 'TEST_REDIS_CLUSTER_URL', TEST_REDIS_CLUSTER_URL),
];

/** A namespace of a test's own, so test files running in parallel never share a key. */
export function testNamespace(): string {
  return `test:${randomBytes(6).toString('hex')}`;
}

/** Every key matching `pattern`, on a cluster from every master (KEYS asks one node only). */
export async function listRedisKeys(redis: RedisClient, pattern: string): Promise<string[]> {
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  return (await Promise.all(nodes.map((node) => node.keys(pattern)))).flat();
}
