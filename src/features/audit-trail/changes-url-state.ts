// The audit page's view (lookups or administrative changes) and the changes' filters as URL
// search params, so "the token changes of last week" is a link like any filtered trail.
import * as z from 'zod/mini';
import { ADMIN_CHANGE_KINDS, type AdminChangeKind } from '../../shared/admin-changes';
import { ConnectionFilter, Day, setPeriod, UserFilter } from './audit-url-state';

/** Which of the page's two views is shown: `?view=changes`, or the lookups without it. */
export type AuditView = 'lookups' | 'changes';

export function parseAuditView(params: URLSearchParams): AuditView {
  return params.get('view') === 'changes' ? 'changes' : 'lookups';
}

/** The filters of the changes. Days are `YYYY-MM-DD` in the browser's time zone. */
export interface ChangeFilters {
  since?: string;
  until?: string;
  user?: string;
  kind?: AdminChangeKind;
  /** One platform connection's changes (its name). */
  connection?: string;
}

const ChangeFiltersSchema = z.object({
  since: Day,
  until: Day,
  user: UserFilter,
  kind: z.catch(z.optional(z.enum(ADMIN_CHANGE_KINDS)), undefined),
  connection: ConnectionFilter,
});
const NAMES = ['since', 'until', 'user', 'kind', 'connection'] as const;

/** Reads the changes' filters; anything invalid is dropped, never thrown. */
export function parseChangeFilters(params: URLSearchParams): ChangeFilters {
  const parsed = ChangeFiltersSchema.parse(
    Object.fromEntries(NAMES.map((name) => [name, params.get(name) ?? undefined])),
  );
  const filters: ChangeFilters = {};
  for (const name of NAMES) {
    const value = parsed[name];
    if (value) (filters as Record<string, string>)[name] = value;
  }
  if (filters.since && filters.until && filters.since > filters.until) delete filters.until;
  return filters;
}

/** The URL of the changes view with `filters`. */
export function serialiseChangeFilters(filters: ChangeFilters): URLSearchParams {
  const params = new URLSearchParams({ view: 'changes' });
  for (const name of NAMES) {
    const value = filters[name];
    if (value) params.set(name, value);
  }
  return params;
}

/** The query of GET /api/audit-trail/changes. */
export function changesQueryString(filters: ChangeFilters, cursor?: string): string {
  const params = new URLSearchParams();
  setPeriod(params, filters);
  if (filters.user) params.set('user', filters.user);
  if (filters.kind) params.set('kind', filters.kind);
  if (filters.connection) params.set('connection', filters.connection);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `?${query}` : '';
}
