// The audited data-subject lookup (docs/product.md §6), as a use case with no HTTP in it: read the
// request, write its intent to the audit trail, send it, write its outcome, and only then let the
// answer go. Every lookup, refused and failed ones included, is accounted for; when the trail
// cannot take the intent nothing is sent, and when it cannot take the outcome the answer is
// withheld. The route (data-subjects-routes.ts) only hands over the body and renders the result.
import type { AuditRecord } from '../../shared/audit-trail';
import {
  LookupRequestSchema,
  type LookupRequest,
  type LookupResponse,
} from '../../shared/data-subject-lookups';
import { DATA_SUBJECT_PROBLEM_TYPES } from '../../shared/data-subject-operations';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { Logger } from '../logger';
import { HttpProblem } from '../problem';
import { problemForUpstreamFailure } from '../upstream/upstream-problems';
import { outcomeOfProblem, type LookupAudit, type LookupIntent } from './audit/lookup-audit';
import { invalidLookupProblem, type DataSubjectLookups } from './data-subject-lookups';

/** Who asks, and the request body as it arrived (JSON text). */
export interface LookupCall {
  readonly user: string;
  /** The request's id (X-Request-Id), kept with the record so the log line can be found. */
  readonly requestId: string | null;
  readonly body: string;
}

/** What the lookup came to, for the route to render. */
export type LookupResult =
  | { readonly kind: 'answer'; readonly answer: LookupResponse }
  /** Refused, failed upstream, or withheld because the trail could not take it. */
  | { readonly kind: 'problem'; readonly problem: HttpProblem }
  /** A bug: accounted for in the trail, then rethrown to the app's error handler. */
  | { readonly kind: 'error'; readonly error: unknown };

/**
 * How far a lookup got before its outcome is written: read (or refused), its intent written, sent.
 * `unrecorded`: the intent could not be written, so nothing was sent and there is nothing more
 * to write.
 */
type Attempt =
  | {
      readonly kind: 'attempted';
      readonly request?: LookupRequest;
      readonly intent?: AuditRecord;
      readonly status: number;
      readonly result: LookupResult;
    }
  | { readonly kind: 'unrecorded'; readonly result: LookupResult };

export interface AuditedLookupDeps {
  readonly lookups: DataSubjectLookups;
  readonly audit: LookupAudit;
  readonly logger: Logger;
}

/** The identifier a request names, as given: what the audit hashes. */
function identifierOf(lookups: DataSubjectLookups, body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { operation, params } = body as { operation?: unknown; params?: unknown };
  if (typeof params !== 'object' || params === null) return undefined;
  const given = params as Record<string, unknown>;
  const known = typeof operation === 'string' ? lookups.find(operation) : undefined;
  const names = known
    ? known.params.filter((param) => param.format === 'identifier').map((param) => param.name)
    : ['identifier'];
  for (const name of names) {
    const value = given[name];
    // Bounded: a 64 KB body must not become a 64 KB HMAC input per request, however cheap.
    if (typeof value === 'string' && value.trim() !== '') return value.slice(0, 1_024);
  }
  return undefined;
}

/** The body as a lookup request, or the 400 that names what is wrong with it. */
function parseLookupRequest(body: unknown): LookupRequest {
  if (body === undefined) throw invalidLookupProblem({ body: 'must be a JSON object' });
  const parsed = LookupRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const [field, param] = issue?.path ?? [];
  // A parameter's own fault names the parameter, as the catalog checks do.
  const where =
    field === 'params' && typeof param === 'string'
      ? param
      : issue?.path.map(String).join('.') || 'body';
  throw invalidLookupProblem({
    [where]:
      issue?.code === 'unrecognized_keys'
        ? `has unknown fields; send operation, params and continuation only`
        : issue?.code === 'too_big'
          ? 'is too long'
          : 'is not valid (operation: an id, params: text values, continuation: a token)',
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A thrown failure as a result: a problem the client is told, or a bug. */
function failure(error: unknown): { status: number; result: LookupResult } {
  const problem = error instanceof HttpProblem ? error : problemForUpstreamFailure(error);
  return problem
    ? { status: problem.problem.status, result: { kind: 'problem', problem } }
    : { status: 500, result: { kind: 'error', error } };
}

/**
 * The 503 when the trail cannot take a lookup's record. Before the intent is written nothing was
 * sent; after it the answer is withheld.
 */
function auditUnavailable(nothingSent: boolean): HttpProblem {
  return new HttpProblem({
    type: DATA_SUBJECT_PROBLEM_TYPES.auditUnavailable,
    title: 'The lookup could not be recorded in the audit trail',
    status: 503,
    detail: nothingSent
      ? 'Every lookup of personal data is recorded before it is made, and the audit trail cannot take records now (the console’s store is full, read-only or unreachable), so nothing was sent to the privacy platform. Try again once the store is back; /readyz shows its state.'
      : 'Every lookup of personal data must be accounted for, so its answer was withheld. Try again; if it persists, the console’s store needs attention.',
  });
}

/** Runs lookups with their audit; one instance serves every request. */
export class AuditedLookup {
  readonly #deps: AuditedLookupDeps;

  constructor(deps: AuditedLookupDeps) {
    this.#deps = deps;
  }

  async run(call: LookupCall): Promise<LookupResult> {
    const body = parseJson(call.body);
    const identifier = identifierOf(this.#deps.lookups, body);
    const attempt = await this.#attempt(call, body, identifier);
    return attempt.kind === 'unrecorded'
      ? attempt.result
      : this.#account(call, identifier, attempt);
  }

  /** Who asks for what: the audit's account of a lookup before its outcome is known. */
  #intent(call: LookupCall, request: LookupRequest | undefined, identifier: string | undefined) {
    const operation = request ? this.#deps.lookups.find(request.operation) : undefined;
    return {
      user: call.user,
      operation: operation?.id ?? 'unknown',
      identifier,
      continued: request?.continuation !== undefined,
      requestId: call.requestId,
      params: request?.params,
      identifierParams: operation?.params
        .filter((param) => param.format === 'identifier')
        .map((param) => param.name),
    } satisfies LookupIntent;
  }

  /** Reads the request, writes its intent, sends it: as far as it gets. */
  async #attempt(
    call: LookupCall,
    body: unknown,
    identifier: string | undefined,
  ): Promise<Attempt> {
    let request: LookupRequest | undefined;
    let prepared: ReturnType<DataSubjectLookups['prepare']>;
    try {
      request = parseLookupRequest(body);
      prepared = this.#deps.lookups.prepare(request);
    } catch (error) {
      return { kind: 'attempted', ...(request ? { request } : {}), ...failure(error) };
    }
    // The intent first: when it cannot be written, nothing personal is fetched.
    const intent = await this.#deps.audit
      .begin(this.#intent(call, request, identifier))
      .catch((error: unknown) => {
        this.#logWithheld(error, prepared.operation.id, 'intent');
        return undefined;
      });
    if (!intent) {
      return { kind: 'unrecorded', result: { kind: 'problem', problem: auditUnavailable(true) } };
    }
    try {
      const answer = await this.#deps.lookups.send(prepared);
      return {
        kind: 'attempted',
        request,
        intent,
        status: 200,
        result: { kind: 'answer', answer },
      };
    } catch (error) {
      return { kind: 'attempted', request, intent, ...failure(error) };
    }
  }

  /** Writes the outcome; the result leaves only once it is written. */
  async #account(
    call: LookupCall,
    identifier: string | undefined,
    { request, intent, status, result }: Extract<Attempt, { kind: 'attempted' }>,
  ): Promise<LookupResult> {
    const { lookups, audit } = this.#deps;
    const operation = request && lookups.find(request.operation) ? request.operation : 'unknown';
    const { outcome, detail } =
      result.kind === 'problem'
        ? outcomeOfProblem(result.problem)
        : result.kind === 'error'
          ? { outcome: 'error' as const, detail: PROBLEM_TYPES.internal }
          : { outcome: 'ok' as const, detail: null };
    try {
      await audit.record({
        ...this.#intent(call, request, identifier),
        operation,
        outcome,
        status,
        detail,
        intent,
        answer: result.kind === 'answer' ? result.answer.data : undefined,
        answerSchema: request ? lookups.answerSchema(request.operation) : undefined,
      });
    } catch (error) {
      this.#logWithheld(error, operation, outcome);
      return { kind: 'problem', problem: auditUnavailable(false) };
    }
    return result;
  }

  #logWithheld(error: unknown, operation: string, stage: string): void {
    // Never the identifier: the operation and the stage are enough to find the cause.
    this.#deps.logger.error(
      { err: error, operation, outcome: stage },
      stage === 'intent'
        ? 'lookup intent could not be written to the audit trail; nothing sent'
        : 'lookup could not be written to the audit trail; answer withheld',
    );
  }
}
