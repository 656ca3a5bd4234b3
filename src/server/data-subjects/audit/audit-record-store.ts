// The audit trail's records, written with the chain entries that cover them: a lookup's intent
// before anything is sent upstream and its outcome (with the data subjects its answer showed, by
// keyed hash) after; a whole lookup at once; an administrative change. Writes that arrive together
// share one durable commit (store/group-commit.ts); each committed lookup or change is then handed
// to the trail's stream (audit-stream.ts). Portable SQL over the SqlDatabase interface.
import * as z from 'zod';
import type { AuditOutcome, AuditParam, AuditRecord } from '../../../shared/audit-trail';
import type { PersonKeyKind } from '../../../shared/data-subject-contract';
import type { LookupPurpose } from '../../../shared/lookup-purpose';
import type { SqlExecutor } from '../../store/database';
import { databaseOpener, type DatabaseOrOpener } from '../../store/database-opener';
import { GroupCommit } from '../../store/group-commit';
import { sortableId } from '../../store/sortable-id';
import { select } from '../../store/typed-rows';
import type { AdministrativeChange } from '../../http/admin-change';
import { CHANGE_COLUMNS, changePayload, stateText, type StoredChange } from './admin-change-entry';
import type { AuditChainStore, ChainLink } from './audit-chain-store';
import {
  AuditRowSchema,
  byHash,
  COLUMNS,
  intentPayload,
  outcomePayload,
  personCount,
  toRecord,
  toStored,
  type AuditRow,
  type StoredAuditRow,
  type StoredShownKey,
} from './lookup-audit-entry';

/** What a lookup is about to do, written before anything is sent (time in epoch ms). */
export interface AuditIntentEntry {
  readonly at: number;
  /**
   * The platform connection the lookup goes to (DEFAULT_CONNECTION until the composition root
   * builds one data-subjects stack per connection). Covered by the intent's chain entry.
   */
  readonly connection: string;
  readonly user: string;
  /** The token the lookup was made with (its name); absent for a signed-in person. */
  readonly tokenName?: string | null;
  readonly operation: string;
  /** HMAC of the identifier asked for (identifier-hash.ts); null when it named none. */
  readonly identifierHash: string | null;
  /** Fingerprint of the key the hashes were made with. */
  readonly keyId: string;
  readonly continued: boolean;
  readonly requestId: string | null;
  /** The parameters asked, identifiers hashed. */
  readonly params?: readonly AuditParam[];
  /** Why the person is looked up; null or absent when none was stated. */
  readonly purpose?: LookupPurpose | null;
  /**
   * The client's address, for the entry's log line and `audit.entry` alert only: the lookup's
   * rows and chain payload never held one, so it is not stored (older entries would differ).
   */
  readonly address?: string | null;
}

/** What came of a lookup. */
export interface AuditOutcomeEntry {
  readonly outcome: AuditOutcome;
  readonly status: number;
  readonly detail: string | null;
  /** Records the answer held; null when there was no answer. */
  readonly recordCount?: number | null;
  /** Keyed hashes of every identifier the answer showed (kind unknown, no links). */
  readonly shownHashes?: readonly string[];
  /** Every person key the answer showed: its keyed hash, kind and person (shown-identifiers.ts). */
  readonly shown?: readonly ShownHash[];
  /** The client's address, as on the intent (not stored). */
  readonly address?: string | null;
}

/** One person key an answer showed, as the trail keeps it. */
export interface ShownHash {
  readonly hash: string;
  readonly kind: PersonKeyKind;
  /** Keys with the same number were shown as one person in this answer. */
  readonly person: number;
}

/** One lookup as the route hands it over in one go (nothing was sent, or tests). */
export type AuditEntry = AuditIntentEntry & AuditOutcomeEntry;

const IdRowSchema = z.object({ id: z.string() });

/**
 * The keys an outcome keeps, one per hash: kinds and persons as the answer showed them, or, for
 * callers that give bare hashes, each an identifier of its own.
 */
function shownKeys(outcome: AuditOutcomeEntry): StoredShownKey[] {
  const keys = new Map<string, StoredShownKey>();
  for (const key of outcome.shown ?? []) {
    if (!keys.has(key.hash)) keys.set(key.hash, { ...key });
  }
  let person = Math.max(-1, ...[...keys.values()].map((key) => key.person ?? -1)) + 1;
  for (const hash of outcome.shownHashes ?? []) {
    if (!keys.has(hash)) keys.set(hash, { hash, kind: 'identifier', person: person++ });
  }
  return [...keys.values()].sort(byHash);
}

const INSERT = `INSERT INTO lookup_audit (
    id, at, username, operation, outcome, status, detail, identifier_hash, key_id, continued,
    request_id, params, record_count, subject_count, completed, chained, token_name,
    purpose_category, purpose_reference, connection
  ) VALUES ($1, $2, $3, $4, 'error', 0, NULL, $5, $6, $7, $8, $9, NULL, 0, 0, 1, $10, $11, $12, $13)`;

const COMPLETE = `UPDATE lookup_audit
  SET outcome = $2, status = $3, detail = $4, record_count = $5, subject_count = $6, completed = 1
  WHERE id = $1 AND completed = 0`;

/** Intents in flight whose chain entries are kept (far more than lookups run at once). */
const INTENT_LINKS_KEPT = 1_024;

export interface AuditRecordStoreOptions {
  /**
   * Told of each completed lookup and each change once its transaction has committed
   * (audit-stream.ts sends it out); must not throw. A lookup is told once, complete.
   */
  readonly onEntry?: (entry: AppendedEntry) => void;
}

/** An entry as the store hands it out after writing it. */
export type AppendedEntry =
  | {
      readonly kind: 'lookup';
      readonly record: StoredAuditRow;
      /** The intent's chain entry; null when the store could not find it (should not happen). */
      readonly intent: ChainLink | null;
      readonly outcome: ChainLink;
      readonly address: string | null;
    }
  | { readonly kind: 'change'; readonly change: StoredChange; readonly link: ChainLink };

/** The trail's writes over a SQL database (SQLite embedded, or PostgreSQL). */
export class AuditRecordStore {
  readonly #chain: Pick<AuditChainStore, 'append' | 'linkOf'>;
  readonly #onEntry: ((entry: AppendedEntry) => void) | undefined;
  /** Intents, outcomes and changes arriving together share one durable commit. */
  readonly #commits: GroupCommit;
  /**
   * The chain entries of the intents this store wrote and has not completed, so an outcome need
   * not read its intent's back (a statement, and on PostgreSQL a round trip, per lookup). Only
   * committed intents are kept, oldest first; an intent completed elsewhere or after a restart,
   * or pushed out by INTENT_LINKS_KEPT newer ones, is read as before.
   */
  readonly #intentLinks = new Map<string, ChainLink>();

  /** `chain` appends each write's entry in the write's own transaction. */
  constructor(
    db: DatabaseOrOpener,
    chain: Pick<AuditChainStore, 'append' | 'linkOf'>,
    options: AuditRecordStoreOptions = {},
  ) {
    this.#chain = chain;
    this.#onEntry = options.onEntry;
    this.#commits = new GroupCommit(databaseOpener(db));
  }

  #rememberIntent(id: string, link: ChainLink): void {
    this.#intentLinks.set(id, link);
    // Lookups whose outcome never came (the process's request ended another way) age out here.
    if (this.#intentLinks.size > INTENT_LINKS_KEPT) {
      const oldest = this.#intentLinks.keys().next().value;
      if (oldest !== undefined) this.#intentLinks.delete(oldest);
    }
  }

  /** Hands a committed entry out; a listener's fault never undoes or fails the write. */
  #tell(entry: AppendedEntry): void {
    try {
      this.#onEntry?.(entry);
    } catch {
      // The entry is in the trail; its copy outside is best effort (audit-stream.ts logs its own).
    }
  }

  async #insertIntent(
    tx: SqlExecutor,
    intent: AuditIntentEntry,
  ): Promise<{ id: string; link: ChainLink }> {
    const id = sortableId(intent.at);
    const at = new Date(intent.at).toISOString();
    const params = intent.params ? JSON.stringify(intent.params) : null;
    await tx.query(INSERT, [
      id,
      at,
      intent.user,
      intent.operation,
      intent.identifierHash,
      intent.keyId,
      intent.continued ? 1 : 0,
      intent.requestId,
      params,
      intent.tokenName ?? null,
      intent.purpose?.category ?? null,
      intent.purpose?.reference ?? null,
      intent.connection,
    ]);
    const link = await this.#chain.append(tx, {
      at,
      kind: 'intent',
      recordId: id,
      payload: intentPayload({
        id,
        at,
        username: intent.user,
        operation: intent.operation,
        identifierHash: intent.identifierHash,
        keyId: intent.keyId,
        continued: intent.continued,
        requestId: intent.requestId,
        params,
        tokenName: intent.tokenName ?? null,
        purposeCategory: intent.purpose?.category ?? null,
        purposeReference: intent.purpose?.reference ?? null,
        connection: intent.connection,
      }),
    });
    return { id, link };
  }

  /** `intentLink`: the intent's chain entry when known; else it is read. */
  async #complete(
    tx: SqlExecutor,
    id: string,
    outcome: AuditOutcomeEntry,
    now: number,
    intentLink?: ChainLink,
  ): Promise<{ row: AuditRow; intent: ChainLink | null; outcome: ChainLink }> {
    const subjects = shownKeys(outcome);
    const recordCount = outcome.recordCount ?? null;
    // Only an intent still open is completed: RETURNING tells whether there was one.
    const { rows } = await select(tx, AuditRowSchema, `${COMPLETE} RETURNING ${COLUMNS}`, [
      id,
      outcome.outcome,
      outcome.status,
      outcome.detail,
      recordCount,
      personCount(subjects),
    ]);
    const row = rows[0];
    if (!row) {
      const exists = (
        await select(tx, IdRowSchema, 'SELECT id FROM lookup_audit WHERE id = $1', [id])
      ).rows.length;
      throw new Error(
        exists ? `audit record ${id} is already complete` : `audit record ${id} does not exist`,
      );
    }
    const at = new Date(row.at).toISOString();
    // One statement per 200 hashes rather than one per hash: a listing page shows up to 50.
    for (let start = 0; start < subjects.length; start += 200) {
      const batch = subjects.slice(start, start + 200);
      await tx.query(
        `INSERT INTO lookup_audit_subjects (audit_id, identifier_hash, at, kind, person) VALUES ${batch
          .map((_, index) => `($1, $${index * 3 + 3}, $2, $${index * 3 + 4}, $${index * 3 + 5})`)
          .join(', ')}`,
        [id, at, ...batch.flatMap((key) => [key.hash, key.kind, key.person])],
      );
    }
    const intent = intentLink ?? (await this.#chain.linkOf(tx, id, 'intent'));
    const outcomeLink = await this.#chain.append(tx, {
      at: new Date(Math.max(now, Date.parse(at))).toISOString(),
      kind: 'outcome',
      recordId: id,
      payload: outcomePayload({
        id,
        at,
        outcome: outcome.outcome,
        status: outcome.status,
        detail: outcome.detail,
        recordCount,
        subjects,
      }),
    });
    return { row, intent: intent ?? null, outcome: outcomeLink };
  }

  /** Tells the listener of a lookup just completed. */
  #tellLookup(
    done: { row: AuditRow; intent: ChainLink | null; outcome: ChainLink },
    address: string | null | undefined,
  ): void {
    this.#tell({
      kind: 'lookup',
      record: toStored(done.row),
      intent: done.intent,
      outcome: done.outcome,
      address: address ?? null,
    });
  }

  /** Writes a lookup's intent before anything is sent; resolves once it is stored. */
  async begin(intent: AuditIntentEntry): Promise<AuditRecord> {
    const { id, link } = await this.#commits.run((tx) => this.#insertIntent(tx, intent));
    this.#rememberIntent(id, link);
    // What was just written, without reading it back.
    return toRecord({
      id,
      at: new Date(intent.at).toISOString(),
      username: intent.user,
      operation: intent.operation,
      outcome: 'error',
      status: 0,
      detail: null,
      identifier_hash: intent.identifierHash,
      key_id: intent.keyId,
      continued: intent.continued,
      request_id: intent.requestId,
      params: intent.params ? JSON.stringify(intent.params) : null,
      purpose_category: intent.purpose?.category ?? null,
      purpose_reference: intent.purpose?.reference ?? null,
      record_count: null,
      subject_count: 0,
      completed: false,
      token_name: intent.tokenName ?? null,
      connection: intent.connection,
    });
  }

  /** Completes the intent `id` with its outcome and the subjects the answer showed. */
  async complete(id: string, outcome: AuditOutcomeEntry, now = Date.now()): Promise<AuditRecord> {
    const intentLink = this.#intentLinks.get(id);
    this.#intentLinks.delete(id);
    const done = await this.#commits.run((tx) => this.#complete(tx, id, outcome, now, intentLink));
    this.#tellLookup(done, outcome.address);
    return toRecord(done.row);
  }

  /** Writes a whole lookup (intent and outcome) at once. */
  async record(entry: AuditEntry): Promise<AuditRecord> {
    const done = await this.#commits.run(async (tx) => {
      const { id, link } = await this.#insertIntent(tx, entry);
      return this.#complete(tx, id, entry, entry.at, link);
    });
    this.#tellLookup(done, entry.address);
    return toRecord(done.row);
  }

  /** Writes an administrative change and its chain entry in one transaction. */
  async recordChange(change: AdministrativeChange): Promise<StoredChange> {
    const stored: StoredChange = {
      id: sortableId(change.at),
      at: new Date(change.at).toISOString(),
      username: change.actor.user,
      tokenId: change.actor.token?.id ?? null,
      tokenName: change.actor.token?.name ?? null,
      address: change.address,
      action: change.action,
      target: change.target,
      before: stateText(change.before),
      after: stateText(change.after),
      requestId: change.requestId,
      connection: change.connection,
    };
    const link = await this.#commits.run(async (tx) => {
      await tx.query(
        `INSERT INTO admin_changes (${CHANGE_COLUMNS})
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          stored.id,
          stored.at,
          stored.username,
          stored.tokenId,
          stored.tokenName,
          stored.address,
          stored.action,
          stored.target,
          stored.before,
          stored.after,
          stored.requestId,
          stored.connection,
        ],
      );
      return this.#chain.append(tx, {
        at: stored.at,
        kind: 'change',
        recordId: stored.id,
        payload: changePayload(stored),
      });
    });
    this.#tell({ kind: 'change', change: stored, link });
    return stored;
  }
}
