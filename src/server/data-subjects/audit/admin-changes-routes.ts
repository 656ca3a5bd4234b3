// `GET /api/audit-trail/changes`: the administrative changes of the audit trail, newest first,
// filtered by kind, person and period and paged like the lookups beside them (admins and
// auditors, as the rest of the trail).
import { Hono } from 'hono';
import * as z from 'zod';
import {
  ADMIN_CHANGE_KINDS,
  AdminChangePageSchema,
  type AdminChange,
  type AdminChangePage,
} from '../../../shared/admin-changes';
import { AUDIT_QUERY_LIMITS } from '../../../shared/audit-trail';
import { AUDIT_TRAIL_ROLES, USERNAME_PATTERN } from '../../../shared/session';
import type { AppEnv } from '../../app-env';
import type { ApiModule } from '../../http/api-operation';
import { listFilter, listQuerySchema, validListQuery } from '../../http/list-query';
import { InvalidCursorError } from '../../store/keyset-cursor';
import type { StoredChange } from './admin-change-entry';
import type { AuditStore, ChangeQuery } from './audit-store';
import { auditTrailApi, invalidCursor } from './audit-trail-routes';

const NO_STORE = { 'Cache-Control': 'private, no-store' };

/** The query: the period, `kind`, `user` (a prefix of a name), and paging. */
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
  },
  AUDIT_QUERY_LIMITS,
);

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
  };
}

/** The routes, mounted at /api/audit-trail/changes. */
export function adminChangesRoutes({ store }: { store: Pick<AuditStore, 'listChanges'> }) {
  return new Hono<AppEnv>().get('/', validListQuery(changesQuerySchema), async (c) => {
    const query: ChangeQuery = c.req.valid('query');
    const page = await store.listChanges(query).catch((error: unknown) => {
      if (error instanceof InvalidCursorError) throw invalidCursor();
      throw error;
    });
    const body: AdminChangePage = {
      items: page.items.map(changeAnswer),
      nextCursor: page.nextCursor,
    };
    return c.json(body, 200, NO_STORE);
  });
}

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
  ],
};
