// Writes one audit record per data-subject lookup: who, when, which operation, what came of it,
// and the identifier only as its keyed hash. The route awaits it before answering.
import type { AuditOutcome, AuditRecord } from '../../shared/audit-trail';
import { DATA_SUBJECT_PROBLEM_TYPES } from '../../shared/data-subject-operations';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { HttpProblem } from '../problem';
import type { AuditStore } from '../store/audit-store';
import type { IdentifierHasher } from './identifier-hash';

/** One lookup to account for. */
export interface LookupAccount {
  readonly user: string;
  readonly operation: string;
  readonly outcome: AuditOutcome;
  readonly status: number;
  readonly detail: string | null;
  /** The identifier as given; hashed here, never stored or logged as it is. */
  readonly identifier: string | undefined;
  readonly continued: boolean;
  readonly requestId: string | null;
}

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

/** Accounts for lookups in an audit store. */
export class LookupAudit {
  readonly #store: AuditStore;
  readonly #hasher: IdentifierHasher;
  readonly #now: () => number;

  constructor(store: AuditStore, hasher: IdentifierHasher, now: () => number) {
    this.#store = store;
    this.#hasher = hasher;
    this.#now = now;
  }

  /** Stores the record; rejects when the store cannot take it. */
  record(account: LookupAccount): Promise<AuditRecord> {
    const identifier = account.identifier?.trim();
    return this.#store.record({
      at: this.#now(),
      user: account.user,
      operation: account.operation,
      outcome: account.outcome,
      status: account.status,
      detail: account.detail,
      identifierHash: identifier ? this.#hasher.hash(identifier) : null,
      keyId: this.#hasher.keyId,
      continued: account.continued,
      requestId: account.requestId,
    });
  }
}
