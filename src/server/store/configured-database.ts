// The console's database where its configuration puts it, opened the one way the console and its
// operator commands (`npm run audit`, `npm run integrations`) all open it: PostgreSQL at
// DATABASE_URL (shared by every replica), else SQLite under DATA_DIR.
import { DEFAULT_DATA_DIR } from '../config/config';
import type { Logger } from '../observability/logger';
import { openDatabase, type SqlDatabase } from './database';
import { openPostgresDatabase } from './postgres-database';

/** Where the database is: PostgreSQL at `databaseUrl` when given, else SQLite under `dataDir`. */
export interface DatabasePlace {
  readonly databaseUrl?: string | undefined;
  readonly dataDir: string;
}

/**
 * The place as the operator commands read it from the environment (after loadEnvironment, so
 * DATABASE_URL_FILE counts), with the console's default: an empty variable counts as unset.
 */
export function databasePlaceOf(env: Readonly<Record<string, string | undefined>>): DatabasePlace {
  return { databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR || DEFAULT_DATA_DIR };
}

/** Opens (and migrates) the database at `place`. */
export function openConfiguredDatabase(
  place: DatabasePlace,
  logger?: Logger,
): Promise<SqlDatabase> {
  return place.databaseUrl
    ? openPostgresDatabase({ url: place.databaseUrl, ...(logger ? { logger } : {}) })
    : openDatabase({ dataDir: place.dataDir });
}
