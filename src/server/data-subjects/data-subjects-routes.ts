// The data-subject routes (docs/product.md §6), admins only: the operations catalog, and lookups
// that run one operation through the audited lookup (audited-lookup.ts): the route reads the body
// and renders the result, nothing more.
import { Hono } from 'hono';
import { LookupRequestSchema, LookupResponseSchema } from '../../shared/data-subject-lookups';
import { DataSubjectCatalogSchema } from '../../shared/data-subject-operations';
import { ADMIN_ONLY, type ApiModule } from '../http/api-operation';
import type { AppEnv } from '../app-env';
import { problemResponse } from '../problem';
import type { AuditedLookup } from './audited-lookup';
import type { DataSubjectLookups } from './data-subject-lookups';

export interface DataSubjectsRoutesDeps {
  readonly lookups: DataSubjectLookups;
  /** Runs one lookup with its audit (audited-lookup.ts). */
  readonly auditedLookup: AuditedLookup;
}

/** Personal data is never kept by a browser or proxy cache. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/** The data-subject routes, mounted at /api/data-subjects. */
export function dataSubjectsRoutes({ lookups, auditedLookup }: DataSubjectsRoutesDeps) {
  const catalog = JSON.stringify({ operations: lookups.operations });

  return new Hono<AppEnv>()
    .get('/operations', (c) =>
      c.body(catalog, 200, { 'Content-Type': 'application/json; charset=utf-8', ...NO_STORE }),
    )
    .post('/lookups', async (c) => {
      const user = c.get('user');
      if (!user) throw new Error('lookup without a signed-in user');
      const result = await auditedLookup.run({
        user: user.username,
        requestId: c.get('requestId') ?? null,
        body: await c.req.text(),
      });
      // A bug was accounted for in the trail; the app's error handler logs it and answers 500.
      if (result.kind === 'error') throw result.error;
      if (result.kind === 'problem') {
        return problemResponse(c, result.problem.problem, result.problem.headers);
      }
      return c.json(result.answer, 200, NO_STORE);
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
