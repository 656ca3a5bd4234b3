// The account-wide view of one platform connection: the console's own use of each limit (that
// connection's governor) stacked with what every integration reporting to it reported, the
// per-integration table, and the 429 incidents of all its reporters merged by the platform's event
// id. `perLimit()` is the seam other parts read (the
// early-warning forecast): one call, every limit, each source's requests in the limit's window,
// and the unreported share as unknown (null), never as zero.
import type {
  AccountIncident,
  AccountLimit,
  AccountOverview,
  Integration,
  IntegrationActivity,
} from '../../shared/integrations';
import type { Incident } from '../../shared/incident';
import { blockOfLimit, type BlockState } from '../../shared/limit-state';
import { OTHER_TEMPLATE } from '../../shared/operation-templates';
import {
  accountMinuteCeiling,
  PERIOD_SECONDS,
  setAsideAtCeiling,
  matchModuleRule,
  type RateLimitPeriod,
  type RateLimitRule,
} from '../../shared/rate-limits';
import type { LimitUsage } from '../governor/governor';
import type { IntegrationStore } from './integration-store';
import type { ReportAggregates, StoredThrottle, TemplateTotal } from './report-aggregates';

/** What the account view reads of the incidents (the rate-limits area's store): the newest ones. */
export interface IncidentList {
  list(query: {
    readonly since: number;
    readonly limit: number;
  }): Promise<{ readonly items: readonly Incident[] }>;
}

/** What the account view reads from the governor. */
export interface GovernorView {
  rules(): readonly RateLimitRule[];
  usage(): Promise<LimitUsage[]>;
  /** The running blocks, described (shared/limit-state.ts): each limit's state comes from it. */
  blockStates(): BlockState[];
  readonly timeline: {
    snapshot(): { bucketSeconds: number; start: number; sent: number[] };
  };
}

export interface AccountUsageOptions {
  /**
   * The platform connection viewed: only the integrations reporting to it, and what they
   * reported, count beside its governor and incidents; absent, every integration (a store used
   * on its own).
   */
  readonly connection?: string;
  readonly store: IntegrationStore;
  readonly reports: ReportAggregates;
  readonly governor: GovernorView;
  readonly incidents: IncidentList;
  readonly now: () => number;
  /** An active integration silent for longer than this is flagged stale (default 2 minutes). */
  readonly staleAfterMs?: number;
  /** How long a computed view is reused (default 1 s): a busy page costs one read a second. */
  readonly cacheMs?: number;
  /** Demo mode: the simulated integrations that can be made to burst. */
  readonly demoBursts?: () => Array<{ id: string; name: string }>;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const INCIDENT_HORIZON_MS = 24 * HOUR_MS;
const TIMELINE_MINUTES = 60;
/** The incidents panel's length; the console's own incidents are never crowded out of it. */
const INCIDENTS_SHOWN = 50;

/** One integration's minute whose count no account limit allows. */
interface ImplausibleMinute {
  readonly integrationId: string;
  readonly minute: number;
  readonly reported: number;
  readonly clampedTo: number;
}

/**
 * Splits reported rows into the plausible ones and the minutes in which one integration reported
 * as many requests as the account's limits allow in a minute, or more (every request: a 429 is a
 * request too, so calling every request refused does not pass). Such a count is a key holder's
 * error or a made-up report, and only the platform's own 429s may say the account's minute was
 * used up. Its minute is listed apart and counts in no limit, timeline or forecast, so one key
 * cannot make the early warning name a limit as exhausted.
 */
function splitImplausible(
  rows: readonly TemplateTotal[],
  rules: readonly RateLimitRule[],
): { plausible: TemplateTotal[]; setAside: TemplateTotal[]; implausible: ImplausibleMinute[] } {
  const ceiling = accountMinuteCeiling(rules);
  if (ceiling === undefined) return { plausible: [...rows], setAside: [], implausible: [] };
  const claimed = new Map<string, number>();
  const slot = (row: TemplateTotal) => `${row.integrationId}|${row.minute}`;
  for (const row of rows) {
    claimed.set(slot(row), (claimed.get(slot(row)) ?? 0) + row.requests);
  }
  const implausible: ImplausibleMinute[] = [];
  for (const [key, reported] of claimed) {
    if (!setAsideAtCeiling(reported, ceiling)) continue;
    const [integrationId = '', minute = '0'] = key.split('|');
    implausible.push({ integrationId, minute: Number(minute), reported, clampedTo: ceiling });
  }
  const isSetAside = (row: TemplateTotal) =>
    setAsideAtCeiling(claimed.get(slot(row)) ?? 0, ceiling);
  return {
    plausible: rows.filter((row) => !isSetAside(row)),
    setAside: rows.filter(isSetAside),
    implausible: implausible.sort((a, b) => b.minute - a.minute),
  };
}

/**
 * Requests of `rows` that fall in the `windowMs` before `now`, from per-minute buckets: the
 * current (partial) minute counts whole, the oldest bucket by the part of it inside the window.
 */
function requestsInWindow(
  rows: readonly Pick<TemplateTotal, 'minute' | 'requests'>[],
  now: number,
  windowMs: number,
): number {
  const from = now - windowMs;
  let total = 0;
  for (const row of rows) {
    const end = Math.min(row.minute + MINUTE_MS, now);
    if (end <= from || row.minute > now) continue;
    const span = Math.max(1, end - row.minute);
    const inside = Math.min(1, (end - Math.max(row.minute, from)) / span);
    total += row.requests * inside;
  }
  return Math.round(total);
}

/**
 * The module rule each method and template falls under, per list of rules: each pair is matched
 * once. A view asks for every report row of the last hour (12,000 for 50 integrations), once per
 * limit and integration, and those rows share a few dozen templates (report intake keeps only the
 * catalog's, the rest become OTHER_TEMPLATE); matched on every ask, building the view held the
 * event loop for seconds (bench/findings/replay-fairness.md). Kept with the list, which the
 * governor builds afresh for each view, so nothing outlives it.
 */
const matchedRules = new WeakMap<
  readonly RateLimitRule[],
  Map<string, Map<string, string | undefined>>
>();

function moduleRuleId(rules: readonly RateLimitRule[], method: string, template: string) {
  let byMethod = matchedRules.get(rules);
  if (!byMethod) matchedRules.set(rules, (byMethod = new Map()));
  let byTemplate = byMethod.get(method);
  if (!byTemplate) byMethod.set(method, (byTemplate = new Map()));
  if (byTemplate.has(template)) return byTemplate.get(template);
  const id = matchModuleRule(method, template, rules)?.id;
  byTemplate.set(template, id);
  return id;
}

/** True when a request of `method` to `template` counts for `rule`. */
function countsFor(
  rule: RateLimitRule,
  rules: readonly RateLimitRule[],
  method: string,
  template: string,
) {
  if (rule.scope === 'account') return true;
  if (template === OTHER_TEMPLATE) return false;
  return moduleRuleId(rules, method, template) === rule.id;
}

/**
 * One connection's account-wide view over the integration store and that connection's governor
 * and incident store.
 */
export class AccountUsage {
  readonly #options: AccountUsageOptions;
  #cached: { at: number; value: Promise<Computed> } | undefined;

  constructor(options: AccountUsageOptions) {
    this.#options = options;
  }

  /** Every limit, account-wide, now: the seam for forecasts. */
  async perLimit(): Promise<AccountLimit[]> {
    return (await this.#compute()).limits;
  }

  /** The whole view of the rate-limits page. */
  async overview(): Promise<AccountOverview> {
    return (await this.#compute()).overview;
  }

  /** Forget the cached view (after a registration, rotation or revocation). */
  invalidate(): void {
    this.#cached = undefined;
  }

  #compute(): Promise<Computed> {
    const now = this.#options.now();
    const ttl = this.#options.cacheMs ?? 1_000;
    if (this.#cached && now - this.#cached.at < ttl && now >= this.#cached.at) {
      return this.#cached.value;
    }
    const value = this.#build(now);
    this.#cached = { at: now, value };
    value.catch(() => {
      if (this.#cached?.value === value) this.#cached = undefined;
    });
    return value;
  }

  async #build(now: number): Promise<Computed> {
    const { store, reports, governor, incidents, connection } = this.#options;
    const staleAfterMs = this.#options.staleAfterMs ?? 2 * MINUTE_MS;
    const [integrations, nameOf, reportedRows, throttles, usage, consoleIncidents] =
      await Promise.all([
        store.list(connection === undefined ? {} : { connection }),
        // Removed integrations too: what they reported still counts, under their name (removed).
        // Every connection's names: only those with rows of this connection show (by their rows).
        store.names(),
        reports.minutesSince(now - HOUR_MS - MINUTE_MS, connection),
        reports.throttlesSince(now - INCIDENT_HORIZON_MS, undefined, connection),
        governor.usage(),
        incidents.list({ since: now - INCIDENT_HORIZON_MS, limit: INCIDENTS_SHOWN }),
      ]);
    const rules = governor.rules();
    const { plausible: rows, setAside, implausible } = splitImplausible(reportedRows, rules);
    const ruleById = new Map(rules.map((rule) => [rule.id, rule]));
    const byIntegration = new Map<string, TemplateTotal[]>();
    for (const row of rows) {
      const list = byIntegration.get(row.integrationId) ?? [];
      list.push(row);
      byIntegration.set(row.integrationId, list);
    }
    const sources = [...nameOf].map(([id, name]) => ({ id, name }));

    const blocks = governor.blockStates();
    const limits: AccountLimit[] = usage.map((limit) => {
      const rule = ruleById.get(limit.ruleId);
      const windowMs = PERIOD_SECONDS[limit.period] * 1_000;
      const perIntegration = sources
        .map((integration) => ({
          id: integration.id,
          name: integration.name,
          used: rule
            ? requestsInWindow(
                (byIntegration.get(integration.id) ?? []).filter((row) =>
                  countsFor(rule, rules, row.method, row.template),
                ),
                now,
                windowMs,
              )
            : 0,
        }))
        .filter((entry) => entry.used > 0);
      const reported = limit.used + perIntegration.reduce((sum, entry) => sum + entry.used, 0);
      const setAsideUsed = rule
        ? requestsInWindow(
            setAside.filter((row) => countsFor(rule, rules, row.method, row.template)),
            now,
            windowMs,
          )
        : 0;
      return {
        ruleId: limit.ruleId,
        period: limit.period,
        limit: limit.limit,
        console: limit.used,
        integrations: perIntegration,
        reported,
        unreported: platformCount(
          limit.ruleId,
          limit.period,
          throttles,
          consoleIncidents.items,
          now,
          windowMs,
          reported,
          limit.incidentKey,
        ),
        ...(setAsideUsed > 0 ? { setAside: setAsideUsed } : {}),
        block: blockOfLimit(limit, blocks),
      };
    });

    const table = integrations.map((integration) =>
      activity(integration, byIntegration.get(integration.id) ?? [], limits, now, staleAfterMs),
    );

    return {
      limits,
      overview: {
        now: new Date(now).toISOString(),
        staleAfterSeconds: Math.round(staleAfterMs / 1_000),
        limits,
        integrations: table,
        timeline: timeline(governor, sources, byIntegration, now),
        incidents: await this.#withSenders(
          mergeIncidents(consoleIncidents.items, throttles, rules, nameOf),
          rows,
          rules,
          nameOf,
          now,
        ),
        demoBursts: this.#options.demoBursts?.() ?? [],
        implausible: implausible.map((minute) => ({
          id: minute.integrationId,
          name: nameOf.get(minute.integrationId) ?? 'A removed integration',
          minute: new Date(minute.minute).toISOString(),
          reported: minute.reported,
          clampedTo: minute.clampedTo,
        })),
      },
    };
  }

  /** Adds each incident's top senders, reading older minutes from the store when needed. */
  async #withSenders(
    incidents: MergedIncident[],
    recent: readonly TemplateTotal[],
    rules: readonly RateLimitRule[],
    nameOf: ReadonlyMap<string, string>,
    now: number,
  ): Promise<AccountIncident[]> {
    const horizon = now - HOUR_MS;
    return Promise.all(
      incidents.map(async ({ first, last, ...incident }) => {
        const rows =
          first - MINUTE_MS >= horizon
            ? recent
            : await this.#options.reports.minutesBetween(
                first - MINUTE_MS,
                first,
                this.#options.connection,
              );
        return {
          ...incident,
          firstSeen: new Date(first).toISOString(),
          lastSeen: new Date(last).toISOString(),
          topSenders: topSenders(incident.ruleId, first, rows, rules, nameOf),
        };
      }),
    );
  }
}

interface Computed {
  limits: AccountLimit[];
  overview: AccountOverview;
}

/**
 * What the platform said was made in the current window of this limit (the latest 429's
 * ot-request-made), minus what was reported; null when no 429 of this window said so.
 */
function platformCount(
  ruleId: string,
  period: RateLimitPeriod,
  throttles: readonly StoredThrottle[],
  consoleIncidents: readonly Incident[],
  now: number,
  windowMs: number,
  reported: number,
  /** The incident whose block the governor honours for this limit now, if any. */
  blockingIncident: string | null,
): number | null {
  let made: number | null = null;
  for (const incident of consoleIncidents) {
    if (incident.ruleId !== ruleId || incident.period !== period) continue;
    if (Date.parse(incident.lastSeen) < now - windowMs || incident.requestsMade === null) continue;
    // A block that would still run but that the governor no longer honours was ended early (an
    // operator ended every block, in demo mode): the count it carried was reset with it.
    if (Date.parse(incident.blockedUntil) > now && incident.key !== blockingIncident) continue;
    made = Math.max(made ?? 0, incident.requestsMade);
  }
  for (const throttle of throttles) {
    if (throttle.period !== period || throttle.lastSeen < now - windowMs) continue;
    if (throttle.requestsMade === null) continue;
    if (throttle.requestsAllowed === null) continue;
    // An integration's 429 names no rule; its allowed count and period identify the account limit.
    if (!ruleId.startsWith('account-')) continue;
    made = Math.max(made ?? 0, throttle.requestsMade);
  }
  return made === null ? null : Math.max(0, made - reported);
}

function activity(
  integration: Integration,
  rows: readonly TemplateTotal[],
  limits: readonly AccountLimit[],
  now: number,
  staleAfterMs: number,
): IntegrationActivity {
  const lastReport =
    integration.lastReportAt === null ? null : Date.parse(integration.lastReportAt);
  return {
    id: integration.id,
    name: integration.name,
    owner: integration.owner,
    status: integration.status,
    requestsLastMinute: requestsInWindow(rows, now, MINUTE_MS),
    requestsLastHour: requestsInWindow(rows, now, HOUR_MS),
    throttledLastHour: Math.round(
      rows
        .filter((row) => row.minute >= now - HOUR_MS)
        .reduce((sum, row) => sum + row.throttled, 0),
    ),
    lastReportAt: integration.lastReportAt,
    stale:
      integration.status === 'active' && (lastReport === null || now - lastReport > staleAfterMs),
    shares: limits
      .map((limit) => ({
        ruleId: limit.ruleId,
        period: limit.period,
        share:
          (limit.integrations.find((entry) => entry.id === integration.id)?.used ?? 0) /
          limit.limit,
      }))
      .filter((share) => share.share > 0),
  };
}

function timeline(
  governor: GovernorView,
  integrations: ReadonlyArray<{ readonly id: string; readonly name: string }>,
  byIntegration: ReadonlyMap<string, TemplateTotal[]>,
  now: number,
): AccountOverview['timeline'] {
  const currentMinute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const start = currentMinute - (TIMELINE_MINUTES - 1) * MINUTE_MS;
  const indexOf = (at: number) => Math.floor((at - start) / MINUTE_MS);
  const own = new Array<number>(TIMELINE_MINUTES).fill(0);
  const snapshot = governor.timeline.snapshot();
  snapshot.sent.forEach((count, index) => {
    const at = snapshot.start + index * snapshot.bucketSeconds * 1_000;
    const slot = indexOf(at);
    if (slot >= 0 && slot < TIMELINE_MINUTES) own[slot] = (own[slot] ?? 0) + count;
  });
  const series = [{ id: 'console', name: 'This console', requests: own }];
  for (const integration of integrations) {
    const requests = new Array<number>(TIMELINE_MINUTES).fill(0);
    for (const row of byIntegration.get(integration.id) ?? []) {
      const slot = indexOf(row.minute);
      if (slot >= 0 && slot < TIMELINE_MINUTES)
        requests[slot] = (requests[slot] ?? 0) + row.requests;
    }
    if (requests.some((count) => count > 0)) {
      series.push({ id: integration.id, name: integration.name, requests });
    }
  }
  return { bucketSeconds: 60, start: new Date(start).toISOString(), series };
}

/** The account rule a reported 429 belongs to, from its period and allowed count. */
function ruleOfThrottle(throttle: StoredThrottle, rules: readonly RateLimitRule[]): string | null {
  if (throttle.period === null) return null;
  const byLimit = rules.find(
    (rule) =>
      rule.limits.some(
        (limit) => limit.period === throttle.period && limit.limit === throttle.requestsAllowed,
      ) &&
      (rule.scope === 'account' || countsFor(rule, rules, throttle.method, throttle.template)),
  );
  return byLimit?.id ?? null;
}

/** An incident across reporters, before its top senders are known. */
export type MergedIncident = Omit<AccountIncident, 'firstSeen' | 'lastSeen'> & {
  first: number;
  last: number;
};

/**
 * One incident per blocking occurrence across all reporters: the console's incident and every
 * integration's 429 with the same event id become one, each reporter listed with its hits.
 * Newest first, at most 50, the console's own always among them.
 */
function mergeIncidents(
  consoleIncidents: readonly Incident[],
  throttles: readonly StoredThrottle[],
  rules: readonly RateLimitRule[],
  nameOf: ReadonlyMap<string, string>,
): MergedIncident[] {
  const merged = new Map<string, MergedIncident>();
  for (const incident of consoleIncidents) {
    merged.set(incident.eventId ?? incident.key, {
      key: incident.key,
      eventId: incident.eventId,
      first: Date.parse(incident.firstSeen),
      last: Date.parse(incident.lastSeen),
      ruleId: incident.ruleId,
      period: incident.period,
      requestsAllowed: incident.requestsAllowed,
      requestsMade: incident.requestsMade,
      reporters: [{ id: 'console', name: 'This console', hits: incident.hits }],
      topSenders: [],
    });
  }
  for (const throttle of throttles) {
    const key = throttle.eventId ?? `${throttle.integrationId}:${throttle.incidentKey}`;
    const reporter = {
      id: throttle.integrationId,
      name: nameOf.get(throttle.integrationId) ?? 'A removed integration',
      hits: throttle.hits,
    };
    const existing = merged.get(key);
    if (existing) {
      existing.reporters.push(reporter);
      existing.first = Math.min(existing.first, throttle.firstSeen);
      existing.last = Math.max(existing.last, throttle.lastSeen);
      if (throttle.requestsMade !== null) {
        existing.requestsMade = Math.max(existing.requestsMade ?? 0, throttle.requestsMade);
      }
      continue;
    }
    merged.set(key, {
      key,
      eventId: throttle.eventId,
      first: throttle.firstSeen,
      last: throttle.lastSeen,
      ruleId: ruleOfThrottle(throttle, rules),
      period: throttle.period,
      requestsAllowed: throttle.requestsAllowed,
      requestsMade: throttle.requestsMade,
      reporters: [reporter],
      topSenders: [],
    });
  }
  for (const incident of merged.values()) incident.reporters.sort((a, b) => b.hits - a.hits);
  // The console's own incidents (at most INCIDENTS_SHOWN, as read) always stay; the
  // integrations' own 429s fill the panel's remaining places, so no key holder can push the
  // console's incidents out of it by reporting many.
  const newestFirst = [...merged.values()].sort((a, b) => b.first - a.first);
  const seenByConsole = (incident: MergedIncident) =>
    incident.reporters.some((reporter) => reporter.id === 'console');
  const own = newestFirst.filter(seenByConsole);
  const others = newestFirst
    .filter((incident) => !seenByConsole(incident))
    .slice(0, Math.max(0, INCIDENTS_SHOWN - own.length));
  return [...own, ...others].sort((a, b) => b.first - a.first);
}

/** The integrations that sent most of the rule's requests in the minute before `first`. */
export function topSenders(
  ruleId: string | null,
  first: number,
  rows: readonly TemplateTotal[],
  rules: readonly RateLimitRule[],
  nameOf: ReadonlyMap<string, string>,
): AccountIncident['topSenders'] {
  const rule = rules.find((candidate) => candidate.id === ruleId);
  const before = new Map<string, number>();
  for (const row of rows) {
    // The minute before the incident, and the minute it began in.
    if (row.minute < first - MINUTE_MS || row.minute > first) continue;
    if (rule && !countsFor(rule, rules, row.method, row.template)) continue;
    before.set(row.integrationId, (before.get(row.integrationId) ?? 0) + row.requests);
  }
  return [...before.entries()]
    .filter(([, requests]) => requests > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([id, requests]) => ({ id, name: nameOf.get(id) ?? 'A removed integration', requests }));
}
