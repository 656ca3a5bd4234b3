// Which back-channel logout tokens were already accepted, by the SHA-256 of their `jti`, kept
// where sessions live (this process's memory, the console's database, or Redis) so a replayed
// token is refused by every replica. Each entry is dropped when its token would have expired.
import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis/redis-connection';
import type { ConsoleRedisKeys } from '../redis/redis-keys';
import type { SqlDatabase } from '../store/database';

/** Remembers seen logout tokens. */
export interface SeenLogoutTokens {
  /** True the first time `jti` is offered (it is then remembered until `expiresAt`, epoch ms). */
  firstSeen(jti: string, expiresAt: number): Promise<boolean>;
}

function jtiHash(jti: string): string {
  return createHash('sha256').update(jti).digest('base64url');
}

/** This process only: for a console without a shared store. */
export class MemorySeenLogoutTokens implements SeenLogoutTokens {
  readonly #seen = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  async firstSeen(jti: string, expiresAt: number): Promise<boolean> {
    const now = this.#now();
    for (const [hash, until] of this.#seen) if (until <= now) this.#seen.delete(hash);
    const hash = jtiHash(jti);
    if (this.#seen.has(hash)) return false;
    this.#seen.set(hash, expiresAt);
    return true;
  }
}

/** In the console's database (SQLite or PostgreSQL shared by the replicas). */
export class SqlSeenLogoutTokens implements SeenLogoutTokens {
  constructor(
    private readonly database: () => Promise<SqlDatabase>,
    private readonly now: () => number,
  ) {}

  async firstSeen(jti: string, expiresAt: number): Promise<boolean> {
    const db = await this.database();
    await db.query('DELETE FROM logout_tokens_seen WHERE expires_at <= $1', [
      new Date(this.now()).toISOString(),
    ]);
    // The primary key decides between replicas racing with the same token.
    const { rows } = await db.query(
      'INSERT INTO logout_tokens_seen (jti_hash, expires_at) VALUES ($1, $2) ON CONFLICT (jti_hash) DO NOTHING RETURNING jti_hash',
      [jtiHash(jti), new Date(expiresAt).toISOString()],
    );
    return rows.length === 1;
  }
}

/** In Redis, shared by the replicas: SET NX with the token's remaining lifetime. */
export class RedisSeenLogoutTokens implements SeenLogoutTokens {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: ConsoleRedisKeys,
    private readonly now: () => number,
  ) {}

  async firstSeen(jti: string, expiresAt: number): Promise<boolean> {
    const ttlMs = Math.max(1_000, expiresAt - this.now());
    const answer = await this.redis.set(
      this.keys.logoutToken(jtiHash(jti)),
      '1',
      'PX',
      ttlMs,
      'NX',
    );
    return answer === 'OK';
  }
}
