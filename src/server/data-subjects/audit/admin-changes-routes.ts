// `GET /api/audit-trail/changes`: the administrative changes of the audit trail, newest first,
// filtered by kind, person and period and paged like the lookups beside them (admins and
// auditors, as the rest of the trail); `POST …/export`: the same changes as a signed export.
import { Hono } from 'hono';
import * as z from 'zod';
import {
  ADMIN_CHANGE_KINDS,
  AdminChangeExportRequestSchema,
  AdminChangePageSchema,
  AdminChangeSchema,
  type AdminChangePage,
} from '../../../shared/admin-changes';
import { AUDIT_QUERY_LIMITS } from '../../../shared/audit-trail';
import { AUDIT_TRAIL_ROLES, USERNAME_PATTERN } from '../../../shared/session';
import type { AppEnv } from '../../http/app-env';
import type { ApiModule } from '../../http/api-operation';
import { listFilter, listQuerySchema, parseListQuery, validListQuery } from '../../http/list-query';
import { invalidParameter } from '../../http/problem';
import { InvalidCursorError } from '../../store/keyset-cursor';
import { ADMIN_CHANGE_LAYOUT, changeAnswer } from './admin-changes-export';
import { signedExportResponse, type SignedExportDeps } from './signed-export-response';
import type { AuditSearch, ChangeQuery } from './audit-search';
import { auditTrailApi, connectionFilter, invalidCursor } from './audit-trail-routes';
import { NO_STORE } from '../../http/no-store';

/** The query: the period, `kind`, `user` (a prefix of a name), `connection`, and paging. */
export const changesQuerySchema = listQuerySchema(
  {
    kind: listFilter(
      z.enum(ADMIN_CHANGE_KINDS, { error: `must be one of ${ADMIN_CHANGE_KINDS.join(', ')}` }),
    ).describe(`The kind of change: one of ${ADMIN_CHANGE_KINDS.join(', ')}.`),
    user: listFilter(
      z
        .string()
        .transform((user) => user.toLowerCase())
        .refine((user) => USERNAME_PATTERN.test(user), 'must be a console username'),
    ).describe('The person who made it, or the owner of the token it was made with (a prefix).'),
    connection: connectionFilter(),
  },
  AUDIT_QUERY_LIMITS,
);

/** The filters of an export, in words, for its manifest. */
function scopeOf(query: Omit<ChangeQuery, 'limit' | 'cursor'>): string {
  const parts = [
    query.since === undefined ? null : `since ${new Date(query.since).toISOString()}`,
    query.until === undefined ? null : `until ${new Date(query.until).toISOString()}`,
    query.kind === undefined ? null : `kind ${query.kind}`,
    query.user === undefined ? null : `user ${query.user}`,
    query.connection === undefined ? null : `connection ${query.connection}`,
  ].filter((part): part is string => part !== null);
  return `administrative changes${parts.length === 0 ? '' : `, filters: ${parts.join(', ')}`}`;
}

/** The routes' needs: the trail's search, and what a signed export needs. */
export interface AdminChangesRoutesDeps extends SignedExportDeps {
  readonly search: Pick<AuditSearch, 'listChanges' | 'countChanges'>;
}

/** The routes, mounted at /api/audit-trail/changes. */
export function adminChangesRoutes(deps: AdminChangesRoutesDeps) {
  const { search } = deps;
  return new Hono<AppEnv>()
    .get('/', validListQuery(changesQuerySchema), async (c) => {
      const query: ChangeQuery = c.req.valid('query');
      const page = await search.listChanges(query).catch((error: unknown) => {
        if (error instanceof InvalidCursorError) throw invalidCursor();
        throw error;
      });
      const body: AdminChangePage = {
        items: page.items.map(changeAnswer),
        nextCursor: page.nextCursor,
      };
      return c.json(body, 200, NO_STORE);
    })
    .post('/export', async (c) => {
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        throw invalidParameter('body', 'must be a JSON object with a format');
      }
      const parsed = AdminChangeExportRequestSchema.safeParse(body);
      if (!parsed.success) {
        const where = parsed.error.issues[0]?.path.map(String).join('.') || 'body';
        throw invalidParameter(
          where,
          'send { "format": "csv" | "json" } and optionally "filters" (since, until, kind, user, connection)',
        );
      }
      // The list's own query schema, so the export holds exactly the changes the page shows.
      const { limit: _limit, ...query }: ChangeQuery = parseListQuery(
        changesQuerySchema,
        parsed.data.filters ?? {},
      );
      return signedExportResponse(c, deps, {
        format: parsed.data.format,
        scope: scopeOf(query),
        total: await search.countChanges(query),
        pages: (cursor, limit) =>
          search.listChanges({ ...query, limit, ...(cursor ? { cursor } : {}) }),
        layout: ADMIN_CHANGE_LAYOUT,
        fileName: 'audit-changes',
      });
    });
}

const ChangesExportFileSchema = z.object({
  exportId: z.string(),
  createdAt: z.iso.datetime(),
  scope: z.string(),
  records: z.array(AdminChangeSchema),
  count: z.int(),
});

/** These routes in the console's API description (api-description/). */
export const adminChangesApi: ApiModule = {
  base: '/api/audit-trail/changes',
  tag: auditTrailApi.tag,
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'listAdminChanges',
      summary: 'The administrative changes of the audit trail, newest first',
      description:
        'Who changed what the console does, when and from where, with the state before and after; secrets appear only as `sha256:` fingerprints.',
      access: { session: AUDIT_TRAIL_ROLES },
      query: changesQuerySchema,
      responses: {
        200: { description: 'One page of changes.', schema: AdminChangePageSchema },
      },
      problems: { 400: 'An unknown or invalid query parameter (`/problems/invalid-parameter`).' },
    },
    {
      method: 'post',
      path: '/export',
      operationId: 'exportAdminChanges',
      summary: 'Export the administrative changes matching the filters as CSV or JSON, signed',
      description:
        'Streamed like the lookups’ export and recorded as `audit.exported`; fetch the detached signature from `/api/audit-trail/exports/{id}/signature` by the `X-Export-Id` once the last byte has arrived.',
      access: { session: AUDIT_TRAIL_ROLES },
      body: AdminChangeExportRequestSchema,
      responses: {
        200: {
          description: 'The export file.',
          mediaType: 'text/csv',
          alsoAs: [{ mediaType: 'application/json', schema: ChangesExportFileSchema }],
          headers: {
            'X-Export-Id': 'The export’s id, for its signature.',
            'X-Export-Records': 'How many changes it holds.',
          },
        },
      },
      problems: {
        400: 'An invalid format or filter (`/problems/invalid-parameter`).',
        413: 'More changes match than one export may hold (`/problems/export-too-large`).',
      },
    },
  ],
};
