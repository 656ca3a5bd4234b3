// The incident history's filters as URL search params, so a filtered view is a link: anything
// unknown or invalid is dropped rather than breaking the page someone shared.
import * as z from 'zod/mini';
import { RATE_LIMIT_PERIODS, type RateLimitPeriod } from '../../shared/rate-limits';

/** The filters of the incident history. Times are ISO 8601 with a zone. */
export interface IncidentFilters {
  since?: string;
  until?: string;
  period?: RateLimitPeriod;
  /** A rule id, or `unmatched`. */
  rule?: string;
}

const IsoTime = z.catch(z.optional(z.iso.datetime({ offset: true })), undefined);
const RuleId = z.catch(z.optional(z.string().check(z.regex(/^[a-z0-9-]{1,64}$/))), undefined);

const FiltersSchema = z.object({
  since: IsoTime,
  until: IsoTime,
  period: z.catch(z.optional(z.enum(RATE_LIMIT_PERIODS)), undefined),
  rule: RuleId,
});

/** Reads the filters from search params; never throws. */
export function parseIncidentFilters(params: URLSearchParams): IncidentFilters {
  const parsed = FiltersSchema.parse({
    since: params.get('since') ?? undefined,
    until: params.get('until') ?? undefined,
    period: params.get('period') ?? undefined,
    rule: params.get('rule') ?? undefined,
  });
  const filters: IncidentFilters = {};
  if (parsed.since) filters.since = parsed.since;
  if (parsed.until) filters.until = parsed.until;
  // A range the wrong way round would answer 400: keep only its start.
  if (filters.since && filters.until && Date.parse(filters.since) > Date.parse(filters.until)) {
    delete filters.until;
  }
  if (parsed.period) filters.period = parsed.period;
  if (parsed.rule) filters.rule = parsed.rule;
  return filters;
}

/** Writes the filters as search params, leaving out what is unset so links stay short. */
export function serialiseIncidentFilters(filters: IncidentFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of ['since', 'until', 'period', 'rule'] as const) {
    const value = filters[name];
    if (value) params.set(name, value);
  }
  return params;
}

/** True when any filter narrows the history. */
export function hasIncidentFilters(filters: IncidentFilters): boolean {
  return Boolean(filters.since || filters.until || filters.period || filters.rule);
}

/** Whether a live incident belongs in a view with `filters` (the server applies the same test). */
export function incidentMatches(
  incident: { firstSeen: string; lastSeen: string; period: string | null; ruleId: string | null },
  filters: IncidentFilters,
): boolean {
  if (filters.since && Date.parse(incident.lastSeen) < Date.parse(filters.since)) return false;
  if (filters.until && Date.parse(incident.firstSeen) > Date.parse(filters.until)) return false;
  if (filters.period && incident.period !== filters.period) return false;
  if (filters.rule === 'unmatched') return incident.ruleId === null;
  if (filters.rule && incident.ruleId !== filters.rule) return false;
  return true;
}
