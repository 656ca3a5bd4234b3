// The data-subject lookup use case (AuditedLookups), behind POST /api/data-subjects/lookups: every
// lookup, refused and failed ones included, is accounted for in the audit trail. Its intent is
// written before anything is sent (when that fails, nothing is sent), and its outcome is written
// before the answer is handed back (when that fails, the answer is withheld). No HTTP here: the
// route reads the request and renders what this returns or throws.
import type { AuditOutcome, AuditRecord } from '../../shared/audit-trail';
import type { LookupRequest, LookupResponse } from '../../shared/data-subject-lookups';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { Logger } from '../observability/logger';
import { HttpProblem } from '../http/problem';
import { problemForUpstreamFailure } from '../upstream/upstream-problems';
import { outcomeOfProblem, type LookupAudit } from './audit/lookup-audit-writer';
import { traceStep } from '../observability/traced-steps';
import {
  auditWithheldMessage,
  lookupIntent,
  type AuditStage,
  type LookupAsker,
} from './audit/lookup-intent-record';
import type { DataSubjectLookups, PreparedLookup } from './data-subject-lookups';

/** Who asks, and either the lookup request they sent or why it could not be read. */
export type AskedLookup = Omit<LookupAsker, 'request'> &
  (
    | { readonly request: LookupRequest }
    /** The request was not a lookup request (the 400 that says why); it is accounted for too. */
    | { readonly invalid: HttpProblem }
  );

/** The trail could not take a lookup's record: nothing was sent (`intent`), or the answer is withheld. */
export class AuditUnavailableError extends Error {
  readonly stage: AuditStage;
  readonly operation: string;

  constructor(stage: AuditStage, operation: string, cause: unknown) {
    super(auditWithheldMessage(stage), { cause });
    this.name = 'AuditUnavailableError';
    this.stage = stage;
    this.operation = operation;
  }
}

/** How a lookup ended before it is accounted for. */
type Ending =
  | { readonly kind: 'answered'; readonly answer: LookupResponse }
  /** Refused with a problem the caller is shown: invalid, not found, rate-limited, upstream… */
  | { readonly kind: 'refused'; readonly problem: HttpProblem }
  /** A bug: accounted for as an error, then rethrown for the app's error handler. */
  | { readonly kind: 'failed'; readonly error: unknown };

function endingOf(error: unknown): Ending {
  const problem = error instanceof HttpProblem ? error : problemForUpstreamFailure(error);
  return problem ? { kind: 'refused', problem } : { kind: 'failed', error };
}

function accountOf(ending: Ending): {
  outcome: AuditOutcome;
  status: number;
  detail: string | null;
} {
  switch (ending.kind) {
    case 'answered':
      return { outcome: 'ok', status: 200, detail: null };
    case 'refused':
      return { ...outcomeOfProblem(ending.problem), status: ending.problem.problem.status };
    case 'failed':
      return { outcome: 'error', status: 500, detail: PROBLEM_TYPES.internal };
  }
}

export interface AuditedLookupsDeps {
  /** The platform connection the lookups go to: every record of them names it. */
  readonly connection: string;
  readonly lookups: DataSubjectLookups;
  readonly audit: LookupAudit;
  readonly logger: Logger;
}

/** Runs data-subject lookups with their account in the audit trail. */
export class AuditedLookups {
  readonly #connection: string;
  readonly #lookups: DataSubjectLookups;
  readonly #audit: LookupAudit;
  readonly #logger: Logger;

  constructor({ connection, lookups, audit, logger }: AuditedLookupsDeps) {
    this.#connection = connection;
    this.#lookups = lookups;
    this.#audit = audit;
    this.#logger = logger;
  }

  /**
   * Runs one lookup: check, write the intent, send, write the outcome. Resolves to the answer.
   * Rejects with the HttpProblem that refused the lookup, with AuditUnavailableError when the trail
   * refused a record, or with an unexpected error; in every case but the trail's refusal, the
   * lookup is in the trail by then.
   */
  async lookUp(asked: AskedLookup): Promise<LookupResponse> {
    const request = 'request' in asked ? asked.request : undefined;
    const asker: LookupAsker = { ...asked, request };
    if ('invalid' in asked) {
      return this.#settle(asker, undefined, { kind: 'refused', problem: asked.invalid });
    }
    let prepared: PreparedLookup;
    try {
      prepared = this.#lookups.prepare(asked.request);
    } catch (error) {
      return this.#settle(asker, undefined, endingOf(error));
    }
    // The intent first: when it cannot be written, nothing personal is fetched.
    const intent = await this.#write(prepared.operation.id, 'intent', () =>
      this.#audit.begin({ ...lookupIntent(this.#lookups, asker), connection: this.#connection }),
    );
    let ending: Ending;
    try {
      ending = { kind: 'answered', answer: await this.#lookups.send(prepared) };
    } catch (error) {
      ending = endingOf(error);
    }
    return this.#settle(asker, intent, ending);
  }

  /** The one place a lookup's outcome is written, and then answered or thrown. */
  async #settle(
    asker: LookupAsker,
    intent: AuditRecord | undefined,
    ending: Ending,
  ): Promise<LookupResponse> {
    const account = {
      ...lookupIntent(this.#lookups, asker),
      connection: this.#connection,
      ...accountOf(ending),
    };
    await this.#write(account.operation, account.outcome, () =>
      this.#audit.record({
        ...account,
        intent,
        answer: ending.kind === 'answered' ? ending.answer.data : undefined,
        answerSchema: asker.request
          ? this.#lookups.answerSchema(asker.request.operation)
          : undefined,
      }),
    );
    switch (ending.kind) {
      case 'answered':
        return ending.answer;
      case 'refused':
        throw ending.problem;
      case 'failed':
        throw ending.error;
    }
  }

  async #write(
    operation: string,
    stage: AuditStage,
    write: () => Promise<AuditRecord>,
  ): Promise<AuditRecord> {
    const step = stage === 'intent' ? 'audit intent' : 'audit outcome';
    const attributes = { 'console.operation_id': operation, 'console.audit_stage': stage };
    return traceStep(step, attributes, async () => {
      try {
        return await write();
      } catch (error) {
        // Never the identifier: the operation and the stage are enough to find the cause.
        this.#logger.error({ err: error, operation, outcome: stage }, auditWithheldMessage(stage));
        throw new AuditUnavailableError(stage, operation, error);
      }
    });
  }
}
