// An administrative change as a row of admin_changes and as the payload of its chain entry (kind
// `change`). The payload covers every column, so a change edited in the database fails
// `npm run audit -- verify`; `v` versions the payload's form so older entries keep verifying.
import * as z from 'zod';
import { integer } from '../../store/typed-rows';

/** A change's columns as stored (before/after as JSON text). */
export interface StoredChange {
  id: string;
  at: string;
  username: string;
  tokenId: string | null;
  tokenName: string | null;
  address: string;
  action: string;
  target: string | null;
  before: string | null;
  after: string | null;
  requestId: string | null;
  /** The platform connection the change was made in (console-wide ones: where it was made). */
  connection: string;
}

export const CHANGE_COLUMNS = `id, at, username, token_id, token_name, address, action, target,
  before_state, after_state, request_id, connection`;

export const ChangeRowSchema = z.object({
  id: z.string(),
  at: z.string(),
  username: z.string(),
  token_id: z.string().nullable(),
  token_name: z.string().nullable(),
  address: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  before_state: z.string().nullable(),
  after_state: z.string().nullable(),
  request_id: z.string().nullable(),
  connection: z.string(),
});

/** Row count type reused by the change queries. */
export const ChangeCountSchema = z.object({ n: integer });

export function storedChange(row: z.infer<typeof ChangeRowSchema>): StoredChange {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    username: row.username,
    tokenId: row.token_id,
    tokenName: row.token_name,
    address: row.address,
    action: row.action,
    target: row.target,
    before: row.before_state,
    after: row.after_state,
    requestId: row.request_id,
    connection: row.connection,
  };
}

/** The versions of a change entry's payload; the newest is written, every one is verified. */
export type ChangePayloadVersion = 1 | 2;

/**
 * The payload of a change's chain entry: exactly the columns it wrote. Version 2 adds the
 * platform connection; version 1, written before connections existed, covers the rest (its
 * changes are `default`'s).
 */
export function changePayload(change: StoredChange, version: ChangePayloadVersion = 2): string {
  const fields = {
    kind: 'change',
    v: version,
    id: change.id,
    at: change.at,
    user: change.username,
    tokenId: change.tokenId,
    tokenName: change.tokenName,
    address: change.address,
    action: change.action,
    target: change.target,
    before: change.before,
    after: change.after,
    requestId: change.requestId,
  };
  return JSON.stringify(version === 1 ? fields : { ...fields, connection: change.connection });
}

/** A before/after state as its column keeps it: JSON, or null for "did not exist". */
export function stateText(state: unknown): string | null {
  return state === undefined || state === null ? null : JSON.stringify(state);
}
