// An administrative change as the API answers it and as a signed export writes it: one CSV row
// (docs/audit-trail.md, "Exporting administrative changes") or, in JSON, the API's own answer.
import type { AdminChange } from '../../../shared/admin-changes';
import type { StoredChange } from './admin-change-entry';
import type { ExportLayout } from './audit-export';

/** A state column as a JSON object (every action records objects; null: none). */
function stateOf(text: string | null): Record<string, unknown> | null {
  return text === null ? null : (JSON.parse(text) as Record<string, unknown>);
}

/** A stored change as the API answers it: before and after as JSON values, not text. */
export function changeAnswer(change: StoredChange): AdminChange {
  return {
    id: change.id,
    at: change.at,
    user: change.username,
    token: change.tokenId === null ? null : { id: change.tokenId, name: change.tokenName ?? '' },
    address: change.address,
    action: change.action,
    target: change.target,
    before: stateOf(change.before),
    after: stateOf(change.after),
    connection: change.connection,
  };
}

/**
 * The changes' export layout. Before and after stay the compact JSON the store keeps (secrets
 * already `sha256:` fingerprints there), one cell each: a column per field would differ from one
 * action to the next, and a reader parses one cell with any JSON library.
 */
export const ADMIN_CHANGE_LAYOUT: ExportLayout<StoredChange> = {
  csvHeader: [
    'id',
    'at',
    'user',
    'token_id',
    'token_name',
    'address',
    'action',
    'target',
    'before',
    'after',
    // Appended: the columns before keep their places for readers written earlier.
    'connection',
  ],
  csvCells: (change) => [
    change.id,
    change.at,
    change.username,
    change.tokenId,
    change.tokenName,
    change.address,
    change.action,
    change.target,
    change.before,
    change.after,
    change.connection,
  ],
  json: changeAnswer,
};
