// Writes data-subject lookups into the audit trail (LookupAudit): the intent (who, when, which operation, the parameters
// asked with identifiers as keyed hashes) is written before anything is sent upstream; the
// outcome, the number of records and the keyed hash of every identifier the answer showed after.
// Keeps the health of those writes for /readyz and /api/health.
import type { AuditOutcome, AuditParam, AuditRecord } from '../../../shared/audit-trail';
import { DEFAULT_CONNECTION } from '../../../shared/connections';
import type { LookupPurpose } from '../../../shared/lookup-purpose';
import { DATA_SUBJECT_PROBLEM_TYPES } from '../../../shared/data-subject-operations';
import { PROBLEM_TYPES } from '../../../shared/problem';
import type { HttpProblem } from '../../http/problem';
import type { AuditEvidenceStore } from './audit-evidence-store';
import type { AuditRecordStore } from './audit-record-store';
import type { IdentifierHasher } from './identifier-hash';
import { shownSubjects } from './shown-identifiers';

/** What the writer needs of the trail: its lookups' writes. */
type LookupRecords = Pick<AuditRecordStore, 'begin' | 'complete' | 'record'>;

/** One lookup to account for. */
export interface LookupAccount {
  /** The platform connection the lookup goes to; DEFAULT_CONNECTION when not given. */
  readonly connection?: string | undefined;
  readonly user: string;
  /** The name of the token for scripts the lookup was made with, if any. */
  readonly token?: string | undefined;
  readonly operation: string;
  readonly outcome: AuditOutcome;
  readonly status: number;
  readonly detail: string | null;
  /** The identifier as given; hashed here, never stored or logged as it is. */
  readonly identifier: string | undefined;
  readonly continued: boolean;
  readonly requestId: string | null;
  /** Why the person is looked up; null when none was stated. Kept in the chained intent. */
  readonly purpose?: LookupPurpose | null;
  /** The client's address (not stored: see AuditIntentEntry.address). */
  readonly address?: string | null | undefined;
  /** The parameters as asked (`request.params`); identifier ones are hashed here. */
  readonly params?: Readonly<Record<string, unknown>> | undefined;
  /** Names of the parameters that are identifiers (the catalog's `identifier` format). */
  readonly identifierParams?: readonly string[] | undefined;
  /** The intent written before the call (begin()); absent when nothing was sent. */
  readonly intent?: AuditRecord | undefined;
  /** The upstream's answer (the lookup's `data`): its shown identifiers and records are kept. */
  readonly answer?: unknown;
  /**
   * The platform contract's schema of that answer: its marked fields (data-subject ids, link
   * tokens) are kept too, with their kind.
   */
  readonly answerSchema?: unknown;
}

/** What the intent needs: the account without its outcome. */
export type LookupIntent = Omit<
  LookupAccount,
  'outcome' | 'status' | 'detail' | 'intent' | 'answer' | 'answerSchema'
>;

/** What a failed lookup's problem means for the trail. */
export function outcomeOfProblem(problem: HttpProblem): {
  outcome: AuditOutcome;
  detail: string;
} {
  const { type, status, incidentId, upstreamStatus } = problem.problem;
  if (status === 429) {
    return { outcome: 'rate-limited', detail: incidentId ? `incident ${incidentId}` : type };
  }
  if (type === DATA_SUBJECT_PROBLEM_TYPES.notFound) return { outcome: 'not-found', detail: type };
  if (type === PROBLEM_TYPES.invalidParameter) {
    // The parameter's name only: its value may be the identifier.
    const parameter = problem.problem.parameter;
    return { outcome: 'invalid', detail: parameter ? `${type} (${parameter})` : type };
  }
  return {
    outcome: 'error',
    detail: upstreamStatus === undefined ? type : `${type} (upstream ${upstreamStatus})`,
  };
}

/** The health of audit writes: failing from a failed write until a write succeeds again. */
export interface AuditWriteHealth {
  readonly ok: boolean;
  readonly failedAt?: string;
  readonly error?: string;
}

const PARAM_LIMIT = 32;
const VALUE_LIMIT = 256;
/** How often readiness tries a small committed write to see whether audit writes work. */
export const AUDIT_PROBE_INTERVAL_MS = 2_000;

/** Accounts for lookups in an audit store. */
export class LookupAudit {
  readonly #store: LookupRecords;
  readonly #probe: Pick<AuditEvidenceStore, 'probeWrite'>;
  readonly #hasher: IdentifierHasher;
  readonly #now: () => number;
  #failure: { at: number; error: string } | undefined;
  #lastProbe = Number.NEGATIVE_INFINITY;

  /** `probe` proves the trail's database takes a committed write (the evidence store). */
  constructor(
    store: LookupRecords,
    probe: Pick<AuditEvidenceStore, 'probeWrite'>,
    hasher: IdentifierHasher,
    now: () => number,
  ) {
    this.#store = store;
    this.#probe = probe;
    this.#hasher = hasher;
    this.#now = now;
  }

  /** The parameters asked, as the trail keeps them: identifiers hashed, values bounded. */
  #params(intent: LookupIntent): AuditParam[] | undefined {
    if (!intent.params) return undefined;
    const identifiers = new Set(intent.identifierParams ?? ['identifier']);
    const kept: AuditParam[] = [];
    for (const [name, value] of Object.entries(intent.params).slice(0, PARAM_LIMIT)) {
      if (value === null || value === undefined || value === '') continue;
      if (identifiers.has(name)) kept.push({ name, hashed: true });
      else kept.push({ name, value: String(value).slice(0, VALUE_LIMIT) });
    }
    return kept;
  }

  async #write<T>(work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      this.#failure = undefined;
      return result;
    } catch (error) {
      this.#failure = {
        at: this.#now(),
        error: error instanceof Error ? error.message : String(error),
      };
      throw error;
    }
  }

  #intentEntry(intent: LookupIntent) {
    const identifier = intent.identifier?.trim();
    const params = this.#params(intent);
    return {
      at: this.#now(),
      connection: intent.connection ?? DEFAULT_CONNECTION,
      user: intent.user,
      tokenName: intent.token ?? null,
      operation: intent.operation,
      identifierHash: identifier ? this.#hasher.hash(identifier) : null,
      keyId: this.#hasher.keyId,
      continued: intent.continued,
      requestId: intent.requestId,
      purpose: intent.purpose ?? null,
      address: intent.address ?? null,
      ...(params ? { params } : {}),
    };
  }

  #outcomeEntry(account: LookupAccount) {
    const address = account.address ?? null;
    if (account.answer === undefined) {
      return { outcome: account.outcome, status: account.status, detail: account.detail, address };
    }
    const shown = shownSubjects(account.answer, account.answerSchema);
    return {
      outcome: account.outcome,
      status: account.status,
      // The walk stopped at a bound: say so, the shown subjects may be incomplete.
      detail: shown.truncated ? 'answer too large: shown identifiers incomplete' : account.detail,
      recordCount: shown.recordCount,
      address,
      shown: shown.keys.map((key) => ({
        hash: this.#hasher.hash(key.value),
        kind: key.kind,
        person: key.person,
      })),
    };
  }

  /**
   * Writes the intent of a lookup about to be sent; rejects when the store cannot take it, and
   * then nothing may be sent.
   */
  begin(intent: LookupIntent): Promise<AuditRecord> {
    return this.#write(() => this.#store.begin(this.#intentEntry(intent)));
  }

  /**
   * Stores the lookup's outcome: completes its intent, or writes the whole lookup when nothing
   * was sent. Rejects when the store cannot take it.
   */
  record(account: LookupAccount): Promise<AuditRecord> {
    const outcome = this.#outcomeEntry(account);
    return this.#write(() =>
      account.intent
        ? this.#store.complete(account.intent.id, outcome)
        : this.#store.record({ ...this.#intentEntry(account), ...outcome }),
    );
  }

  /**
   * Whether audit writes work. A small committed write and its removal (probeWrite) runs at most
   * every AUDIT_PROBE_INTERVAL_MS, whether or not a lookup failed: a disk that fills up, or a store
   * that turns read-only, shows on /readyz and the banner within seconds, before a lookup is
   * refused, and readiness recovers without waiting for one.
   */
  async health(): Promise<AuditWriteHealth> {
    if (this.#now() - this.#lastProbe >= AUDIT_PROBE_INTERVAL_MS) {
      this.#lastProbe = this.#now();
      const failure = this.#failure;
      try {
        await this.#probe.probeWrite(this.#now());
        if (this.#failure === failure) this.#failure = undefined;
      } catch (error) {
        this.#failure ??= {
          at: this.#now(),
          error: error instanceof Error ? error.message : String(error),
        };
      }
    }
    const failure = this.#failure;
    if (!failure) return { ok: true };
    return { ok: false, failedAt: new Date(failure.at).toISOString(), error: failure.error };
  }
}
