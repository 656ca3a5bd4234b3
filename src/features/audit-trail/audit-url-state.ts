// The audit trail's filters as URL search params, so a filtered view is a link. Never the
// identifier: searching by identifier is a form whose value stays in the page.
import * as z from 'zod/mini';
import { AUDIT_OUTCOMES, type AuditOutcome } from '../../shared/audit-trail';
import { CONNECTION_NAME_PATTERN } from '../../shared/connections';
import {
  PURPOSE_CATEGORY_MAX_LENGTH,
  PURPOSE_REFERENCE_MAX_LENGTH,
} from '../../shared/lookup-purpose';

/** The filters of the trail. Days are `YYYY-MM-DD` in the browser's time zone. */
export interface AuditFilters {
  since?: string;
  until?: string;
  user?: string;
  operation?: string;
  outcome?: AuditOutcome;
  /** A purpose's reference (a ticket or request id, never personal data): "everything under it". */
  reference?: string;
  /** A purpose category (LOOKUP_PURPOSE_CATEGORIES). */
  category?: string;
  /** One platform connection's records (its name). */
  connection?: string;
}

export const Day = z.catch(z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))), undefined);
/** A connection filter: a connection's name, as the records hold it. */
export const ConnectionFilter = z.catch(
  z.optional(z.string().check(z.regex(CONNECTION_NAME_PATTERN))),
  undefined,
);
/** A user filter: the start of a console username. */
export const UserFilter = z.catch(
  z.optional(z.string().check(z.regex(/^[a-z0-9][a-z0-9._-]{0,63}$/))),
  undefined,
);
const FiltersSchema = z.object({
  since: Day,
  until: Day,
  user: UserFilter,
  operation: z.catch(z.optional(z.string().check(z.regex(/^[a-z0-9-]{1,64}$/))), undefined),
  outcome: z.catch(z.optional(z.enum(AUDIT_OUTCOMES)), undefined),
  reference: z.catch(
    z.optional(z.string().check(z.trim(), z.maxLength(PURPOSE_REFERENCE_MAX_LENGTH))),
    undefined,
  ),
  category: z.catch(
    z.optional(z.string().check(z.trim(), z.maxLength(PURPOSE_CATEGORY_MAX_LENGTH))),
    undefined,
  ),
  connection: ConnectionFilter,
});

const NAMES = [
  'since',
  'until',
  'user',
  'operation',
  'outcome',
  'reference',
  'category',
  'connection',
] as const;

/** Reads the filters from search params; anything invalid is dropped, never thrown. */
export function parseAuditFilters(params: URLSearchParams): AuditFilters {
  const parsed = FiltersSchema.parse(
    Object.fromEntries(NAMES.map((name) => [name, params.get(name) ?? undefined])),
  );
  const filters: AuditFilters = {};
  for (const name of NAMES) {
    const value = parsed[name];
    if (value) (filters as Record<string, string>)[name] = value;
  }
  // A reversed period is kept as typed, so the inputs, the URL and the page all show it; the
  // page names the problem (reversedPeriod) instead of quietly dropping an end.
  return filters;
}

/** True when the period ends before it starts: nothing can match, so nothing is asked for. */
export function reversedPeriod(filters: Pick<AuditFilters, 'since' | 'until'>): boolean {
  return Boolean(filters.since && filters.until && filters.since > filters.until);
}

/** Writes the filters, leaving out what is unset. */
export function serialiseAuditFilters(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of NAMES) {
    const value = filters[name];
    if (value) params.set(name, value);
  }
  return params;
}

/** The start (or the end) of day `YYYY-MM-DD` in this browser's time zone, as an instant. */
function localDay(day: string, end: boolean): string {
  const [y, m, d] = day.split('-').map(Number);
  const date = end
    ? new Date(y!, m! - 1, d!, 23, 59, 59, 999)
    : new Date(y!, m! - 1, d!, 0, 0, 0, 0);
  return date.toISOString();
}

/** `since` and `until` of the API query from a period of days, into `params`. */
export function setPeriod(params: URLSearchParams, period: { since?: string; until?: string }) {
  if (period.since) params.set('since', localDay(period.since, false));
  if (period.until) params.set('until', localDay(period.until, true));
}

/** The API query: days become the start and end of the day in this browser's time zone. */
export function auditQueryString(filters: AuditFilters, cursor?: string): string {
  const params = new URLSearchParams();
  setPeriod(params, filters);
  if (filters.user) params.set('user', filters.user);
  if (filters.operation) params.set('operation', filters.operation);
  if (filters.outcome) params.set('outcome', filters.outcome);
  if (filters.reference) params.set('reference', filters.reference);
  if (filters.category) params.set('category', filters.category);
  if (filters.connection) params.set('connection', filters.connection);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `?${query}` : '';
}
