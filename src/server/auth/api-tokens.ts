// Tokens for scripts, kept in the console's database (SQLite under DATA_DIR, PostgreSQL with
// DATABASE_URL, or without either the in-memory database the other stores share, which lasts as
// long as the process). A token is `pac_` and 32 random bytes, answered once; the table holds its
// SHA-256 only, so a copy of the database authenticates nobody. A slow hash would add nothing: a
// 256-bit random secret cannot be guessed from its hash, and each request looks its token up.
//
// "Last used" is written at most once a minute per token and process, so a script's requests do
// not each cost a write.
import { createHash, randomBytes } from 'node:crypto';
import * as z from 'zod';
import { API_TOKEN_PREFIX, type ApiToken, type CreateApiToken } from '../../shared/api-tokens';
import { RoleSchema } from '../../shared/session';
import type { RequestUser } from '../http/app-env';
import type { SqlDatabase } from '../store/database';
import { select } from '../store/typed-rows';

/** Where the owner's access comes from, so a use can check it still holds. */
export type TokenOwnerSource = 'users-file' | 'provider';

/** A stored token, with what the owner check needs. */
export interface ApiTokenRecord extends ApiToken {
  readonly ownerSource: TokenOwnerSource;
}

/** The shape of a token: the prefix and 32 random bytes in base64url. */
const TOKEN_PATTERN = new RegExp(`^${API_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);

/** "Last used" is written at most this often per token. */
const LAST_USED_EVERY_MS = 60_000;

const TokenRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.string(),
  owner_source: z.enum(['users-file', 'provider']),
  role: RoleSchema,
  created_at: z.string(),
  expires_at: z.string(),
  last_used_at: z.string().nullable(),
});
type TokenRow = z.infer<typeof TokenRowSchema>;

const COLUMNS = 'id, name, owner, owner_source, role, created_at, expires_at, last_used_at';

function recordOf(row: TokenRow): ApiTokenRecord {
  return {
    id: row.id,
    name: row.name,
    owner: row.owner,
    ownerSource: row.owner_source,
    role: row.role,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
  };
}

/** The SHA-256 of a token, as the table keeps it. */
export function apiTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

export interface ApiTokensOptions {
  /** The console's database (open-store.ts). */
  readonly database: () => Promise<SqlDatabase>;
  readonly now: () => number;
}

/** The tokens for scripts: made, looked up by the bearer check, listed and revoked. */
export class ApiTokens {
  readonly #options: ApiTokensOptions;
  /** When this process last wrote each token's "last used". */
  readonly #lastWritten = new Map<string, number>();

  constructor(options: ApiTokensOptions) {
    this.#options = options;
  }

  /**
   * Makes a token for `owner`; the answer is the only place the token ever appears. `beforeWrite`
   * runs once the token and its record exist but before they are stored (the audit entry): when it
   * rejects, no token is made.
   */
  async create(
    owner: Pick<RequestUser, 'username' | 'method'>,
    request: CreateApiToken,
    beforeWrite?: (made: { token: string; record: ApiTokenRecord }) => Promise<void>,
  ): Promise<{ token: string; record: ApiTokenRecord }> {
    const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const at = this.#options.now();
    const record: ApiTokenRecord = {
      id: randomBytes(12).toString('base64url'),
      name: request.name,
      owner: owner.username,
      ownerSource: owner.method === 'provider' ? 'provider' : 'users-file',
      role: request.role,
      createdAt: new Date(at).toISOString(),
      expiresAt: new Date(at + request.expiresInDays * 86_400_000).toISOString(),
      lastUsedAt: null,
    };
    await beforeWrite?.({ token, record });
    const db = await this.#options.database();
    await db.query(
      `INSERT INTO api_tokens (id, token_hash, name, owner, owner_source, role, created_at,
         expires_at, last_used_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL)`,
      [
        record.id,
        apiTokenHash(token),
        record.name,
        record.owner,
        record.ownerSource,
        record.role,
        record.createdAt,
        record.expiresAt,
      ],
    );
    return { token, record };
  }

  /**
   * The live token `token` names, or undefined: malformed, unknown (never made, or revoked) or
   * expired. Records its use.
   */
  async verify(token: string): Promise<ApiTokenRecord | undefined> {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    const db = await this.#options.database();
    const {
      rows: [row],
    } = await select(
      db,
      TokenRowSchema,
      `SELECT ${COLUMNS} FROM api_tokens WHERE token_hash = $1`,
      [apiTokenHash(token)],
    );
    if (!row) return undefined;
    const at = this.#options.now();
    if (!(at < Date.parse(row.expires_at))) return undefined;
    const record = recordOf(row);
    if (at - (this.#lastWritten.get(record.id) ?? -Infinity) >= LAST_USED_EVERY_MS) {
      this.#lastWritten.set(record.id, at);
      const lastUsedAt = new Date(at).toISOString();
      // A failure costs only the "last used" figure, never the request.
      await db
        .query('UPDATE api_tokens SET last_used_at = $2 WHERE id = $1', [record.id, lastUsedAt])
        .catch(() => undefined);
      return { ...record, lastUsedAt };
    }
    return record;
  }

  /** The tokens of `owner` (every token without one), newest first; expired ones included. */
  async list(owner?: string): Promise<ApiTokenRecord[]> {
    const db = await this.#options.database();
    const { rows } = await select(
      db,
      TokenRowSchema,
      `SELECT ${COLUMNS} FROM api_tokens
       WHERE CAST($1 AS text) IS NULL OR owner = CAST($1 AS text)
       ORDER BY created_at DESC, id DESC`,
      [owner ?? null],
    );
    return rows.map(recordOf);
  }

  /**
   * Deletes token `id` if `allowed` says its record may be revoked; answers what was revoked.
   * `beforeDelete` runs first (the audit entry): when it rejects, the token keeps working.
   */
  async revoke(
    id: string,
    allowed: (record: ApiTokenRecord) => boolean,
    beforeDelete?: (record: ApiTokenRecord) => Promise<void>,
  ): Promise<ApiTokenRecord | undefined> {
    const db = await this.#options.database();
    const {
      rows: [row],
    } = await select(db, TokenRowSchema, `SELECT ${COLUMNS} FROM api_tokens WHERE id = $1`, [id]);
    if (!row || !allowed(recordOf(row))) return undefined;
    await beforeDelete?.(recordOf(row));
    await db.query('DELETE FROM api_tokens WHERE id = $1', [id]);
    this.#lastWritten.delete(id);
    return recordOf(row);
  }
}
