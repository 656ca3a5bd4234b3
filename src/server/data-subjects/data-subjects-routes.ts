// The data-subject routes (docs/product.md §6), admins only (app.ts): the operations catalog, and
// lookups that run one operation. A lookup's route reads the request and renders the answer or
// the problem; the audited lookup (lookup-use-case.ts) writes every lookup, refused and failed ones
// included, to the audit trail before the answer leaves, and withholds it if it cannot.
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import {
  LookupRequestSchema,
  LookupResponseSchema,
  type LookupRequest,
} from '../../shared/data-subject-lookups';
import { DataSubjectCatalogSchema } from '../../shared/data-subject-operations';
import { ADMIN_ONLY, type ApiModule } from '../http/api-operation';
import type { AppEnv } from '../http/app-env';
import type { LookupAudit } from './audit/lookup-audit-writer';
import { auditWithheldProblem } from './audit/lookup-intent-record';
import { AuditedLookups, AuditUnavailableError, type AskedLookup } from './lookup-use-case';
import type { DataSubjectLookups } from './data-subject-lookups';
import { invalidLookupProblem } from './data-subject-lookups';
import { checkPurpose, type PurposePolicy } from './lookup-purpose';
import type { Logger } from '../observability/logger';
import { HttpProblem, problemResponse } from '../http/problem';
import { NO_STORE } from '../http/no-store';

export interface DataSubjectsRoutesDeps {
  /** The platform connection these routes look people up in (its records name it). */
  readonly connection: string;
  readonly lookups: DataSubjectLookups;
  /** Whether a lookup must state why, and the categories it may name (LOOKUP_PURPOSE). */
  readonly purpose: PurposePolicy;
  readonly audit: LookupAudit;
  readonly logger: Logger;
  /** Runs before each lookup (the step-up to a recent provider sign-in). */
  readonly beforeLookup?: MiddlewareHandler<AppEnv>;
  /** The client's address as the console sees it (TRUST_PROXY), for the entry's log line. */
  readonly clientAddress?: (c: Context<AppEnv>) => string;
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

/** A lookup as read: refused before it began (its purpose), or asked (valid or not). */
type ReadLookup =
  | { readonly refused: HttpProblem }
  | (Pick<AskedLookup, 'identifier' | 'purpose'> &
      ({ request: LookupRequest } | { invalid: HttpProblem }));

/**
 * The lookup request in `text`, or the 400 that says why it is not one. A faulty purpose refuses
 * the lookup before it begins (nothing is sent or recorded); any other fault is a lookup refused,
 * and recorded as such.
 */
function readLookup(
  lookups: DataSubjectLookups,
  policy: PurposePolicy,
  text: string | undefined,
): ReadLookup {
  let body: unknown;
  try {
    body = JSON.parse(text ?? '');
  } catch {
    return {
      identifier: undefined,
      purpose: null,
      invalid: invalidLookupProblem({ body: 'must be a JSON object' }),
    };
  }
  const identifier = identifierOf(lookups, body);
  const checked = checkPurpose(policy, body, identifier);
  if ('problem' in checked) return { refused: checked.problem };
  const { purpose } = checked;
  // The purpose was checked above (and is ignored with LOOKUP_PURPOSE=off): the rest is the lookup.
  const { purpose: _stated, ...rest } =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const parsed = LookupRequestSchema.safeParse(
    typeof body === 'object' && body !== null && !Array.isArray(body) ? rest : body,
  );
  if (parsed.success) return { identifier, purpose, request: parsed.data };
  const issue = parsed.error.issues[0];
  const [field, param] = issue?.path ?? [];
  // A parameter's own fault names the parameter, as the catalog checks do.
  const where =
    field === 'params' && typeof param === 'string'
      ? param
      : issue?.path.map(String).join('.') || 'body';
  return {
    identifier,
    purpose,
    invalid: invalidLookupProblem({
      [where]:
        issue?.code === 'unrecognized_keys'
          ? `has unknown fields; send operation, params and continuation only`
          : issue?.code === 'too_big'
            ? 'is too long'
            : 'is not valid (operation: an id, params: text values, continuation: a token)',
    }),
  };
}

/** The data-subject routes, mounted at /api/data-subjects. */
export function dataSubjectsRoutes({
  connection,
  lookups,
  purpose,
  audit,
  logger,
  beforeLookup = (_c, next) => next(),
  clientAddress,
}: DataSubjectsRoutesDeps) {
  const catalog = JSON.stringify({ operations: lookups.operations });
  const audited = new AuditedLookups({ connection, lookups, audit, logger });

  return new Hono<AppEnv>()
    .get('/operations', (c) =>
      c.body(catalog, 200, { 'Content-Type': 'application/json; charset=utf-8', ...NO_STORE }),
    )
    .post('/lookups', beforeLookup, async (c) => {
      const user = c.get('user');
      if (!user) throw new Error('lookup without a signed-in user');
      const read = readLookup(lookups, purpose, await c.req.text().catch(() => undefined));
      if ('refused' in read) return problemResponse(c, read.refused.problem);
      try {
        const answer = await audited.lookUp({
          ...read,
          user: user.username,
          token: user.token?.name,
          requestId: c.get('requestId') ?? null,
          address: clientAddress?.(c) ?? null,
        });
        return c.json(answer, 200, NO_STORE);
      } catch (error) {
        if (error instanceof AuditUnavailableError) {
          return problemResponse(c, auditWithheldProblem(error.stage).problem);
        }
        if (error instanceof HttpProblem) {
          return problemResponse(c, error.problem, error.headers);
        }
        // A bug, accounted for: the app's error handler answers and logs it.
        throw error;
      }
    });
}

/** These routes in the console's API description (api-description/). */
export const dataSubjectsApi: ApiModule = {
  base: '/api/data-subjects',
  scope: 'connection',
  tag: {
    name: 'Data subjects',
    description: 'The platform’s data-subject operations, and lookups through them (admins only).',
  },
  operations: [
    {
      method: 'get',
      path: '/operations',
      operationId: 'listDataSubjectOperations',
      summary: 'The data-subject operations catalog',
      access: { session: ADMIN_ONLY },
      responses: { 200: { description: 'The catalog.', schema: DataSubjectCatalogSchema } },
    },
    {
      method: 'post',
      path: '/lookups',
      operationId: 'lookUpDataSubject',
      summary: 'Run one catalog operation against the platform',
      description:
        'The identifier travels in the body, never in a URL. `purpose` says why the person is looked up (a category of the configured list and a ticket or request id); it is kept in the audit trail. Every lookup, refused and failed ones included, is written to the audit trail before the answer leaves.',
      access: { session: ADMIN_ONLY },
      body: LookupRequestSchema,
      responses: { 200: { description: 'The platform’s answer.', schema: LookupResponseSchema } },
      problems: {
        400: 'An unknown operation or invalid parameters, each named (`/problems/invalid-parameter`); a purpose missing (LOOKUP_PURPOSE=required), of an unknown category, too long or holding personal data, named as `purpose`, `purpose.category` or `purpose.reference`, in which case nothing is sent or recorded.',
        404: 'The platform has no such data subject (`/problems/data-subject-not-found`).',
        429: 'The platform or the governor holds requests back (`/problems/rate-limited`).',
        502: 'The platform refused or answered something unusable (`/problems/upstream-*`, `/problems/data-subject-operation-unavailable`).',
        503: 'The platform cannot be reached, or the audit trail cannot be written (`/problems/audit-unavailable`).',
        504: 'The platform did not answer in time (`/problems/upstream-timeout`).',
      },
    },
  ],
};
