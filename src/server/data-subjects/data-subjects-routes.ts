// The data-subject routes (docs/product.md §6), admins only (app.ts): the operations catalog, and
// lookups that run one operation. Every lookup, refused and failed ones included, is written to
// the audit trail before the answer leaves; if it cannot be written, the answer is withheld.
import { Hono } from 'hono';
import type { AuditRecord } from '../../shared/audit-trail';
import {
  LookupRequestSchema,
  LookupResponseSchema,
  type LookupRequest,
  type LookupResponse,
} from '../../shared/data-subject-lookups';
import { DataSubjectCatalogSchema } from '../../shared/data-subject-operations';
import { ADMIN_ONLY, type ApiModule } from '../http/api-operation';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { AppEnv } from '../app-env';
import { outcomeOfProblem, type LookupAccount, type LookupAudit } from './audit/lookup-audit';
import { auditWithheld, lookupIntent } from './audit/lookup-intent';
import type { DataSubjectLookups } from './data-subject-lookups';
import { invalidLookupProblem } from './data-subject-lookups';
import type { Logger } from '../logger';
import { HttpProblem, problemResponse } from '../problem';
import { problemForUpstreamFailure } from '../upstream/upstream-problems';

export interface DataSubjectsRoutesDeps {
  readonly lookups: DataSubjectLookups;
  readonly audit: LookupAudit;
  readonly logger: Logger;
}

/** Personal data is never kept by a browser or proxy cache. */
const NO_STORE = { 'Cache-Control': 'no-store' };

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

/** The data-subject routes, mounted at /api/data-subjects. */
export function dataSubjectsRoutes({ lookups, audit, logger }: DataSubjectsRoutesDeps) {
  const catalog = JSON.stringify({ operations: lookups.operations });

  return new Hono<AppEnv>()
    .get('/operations', (c) =>
      c.body(catalog, 200, { 'Content-Type': 'application/json; charset=utf-8', ...NO_STORE }),
    )
    .post('/lookups', async (c) => {
      const user = c.get('user');
      if (!user) throw new Error('lookup without a signed-in user');
      let body: unknown;
      let request: LookupRequest | undefined;
      let intent: AuditRecord | undefined;
      let result: { status: number; json?: unknown; problem?: HttpProblem; unexpected?: unknown };
      try {
        try {
          body = JSON.parse(await c.req.text());
        } catch {
          throw invalidLookupProblem({ body: 'must be a JSON object' });
        }
        const parsed = LookupRequestSchema.safeParse(body);
        if (!parsed.success) {
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
        request = parsed.data;
        const prepared = lookups.prepare(request);
        // The intent first: when it cannot be written, nothing personal is fetched.
        try {
          intent = await audit.begin(
            lookupIntent(lookups, user.username, request, identifierOf(lookups, body), c),
          );
        } catch (error) {
          return auditWithheld(c, logger, error, prepared.operation.id, 'intent');
        }
        result = { status: 200, json: await lookups.send(prepared) };
      } catch (error) {
        const problem = error instanceof HttpProblem ? error : problemForUpstreamFailure(error);
        // A bug is accounted for too, then handled (and logged) by the app's error handler.
        result = problem
          ? { status: problem.problem.status, problem }
          : { status: 500, unexpected: error };
      }

      const operationId =
        request && lookups.find(request.operation) ? request.operation : 'unknown';
      const { outcome, detail } = result.problem
        ? outcomeOfProblem(result.problem)
        : result.unexpected
          ? { outcome: 'error' as const, detail: PROBLEM_TYPES.internal }
          : { outcome: 'ok' as const, detail: null };
      const account: LookupAccount = {
        ...lookupIntent(lookups, user.username, request, identifierOf(lookups, body), c),
        operation: operationId,
        outcome,
        status: result.status,
        detail,
        intent,
        answer: (result.json as LookupResponse | undefined)?.data,
        answerSchema: request ? lookups.answerSchema(request.operation) : undefined,
      };
      try {
        await audit.record(account);
      } catch (error) {
        return auditWithheld(c, logger, error, operationId, outcome);
      }
      if (result.unexpected) throw result.unexpected;
      if (result.problem) {
        return problemResponse(c, result.problem.problem, result.problem.headers);
      }
      return c.json(result.json, 200, NO_STORE);
    });
}

/** These routes in the console's API description (api-description/). */
export const dataSubjectsApi: ApiModule = {
  base: '/api/data-subjects',
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
        'The identifier travels in the body, never in a URL. Every lookup, refused and failed ones included, is written to the audit trail before the answer leaves.',
      access: { session: ADMIN_ONLY },
      body: LookupRequestSchema,
      responses: { 200: { description: 'The platform’s answer.', schema: LookupResponseSchema } },
      problems: {
        400: 'An unknown operation or invalid parameters, each named (`/problems/invalid-parameter`).',
        404: 'The platform has no such data subject (`/problems/data-subject-not-found`).',
        429: 'The platform or the governor holds requests back (`/problems/rate-limited`).',
        502: 'The platform refused or answered something unusable (`/problems/upstream-*`, `/problems/data-subject-operation-unavailable`).',
        503: 'The platform cannot be reached, or the audit trail cannot be written (`/problems/audit-unavailable`).',
        504: 'The platform did not answer in time (`/problems/upstream-timeout`).',
      },
    },
  ],
};
