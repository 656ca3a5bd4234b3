// The gauges read when Prometheus scrapes rather than kept up to date as things happen: each
// limit's headroom, each integration's reported use, readiness and the audit checkpoints. Reading
// them costs what one visit of the rate-limits page costs, once per scrape interval.
import type { RateLimitPeriod } from '../../shared/rate-limits';
import type { ConsoleMetrics } from './console-metrics';

/** One limit as a connection's governor reports it (times in epoch ms). */
export interface ScrapedLimit {
  /** The platform connection whose governor keeps it. */
  readonly connection: string;
  readonly ruleId: string;
  readonly period: RateLimitPeriod;
  readonly limit: number;
  readonly used: number;
  readonly resetsAt: number | null;
  readonly blockedUntil: number | null;
}

/** One integration's row of its connection's account-wide view. */
export interface ScrapedIntegration {
  /** The platform connection whose account the integration reports for. */
  readonly connection: string;
  readonly name: string;
  readonly requestsLastMinute: number;
  readonly requestsLastHour: number;
  readonly throttledLastHour: number;
}

/** Where the scraped gauges come from. */
export interface ScrapeSources {
  readonly limits: () => Promise<readonly ScrapedLimit[]>;
  readonly integrations: () => Promise<readonly ScrapedIntegration[]>;
  /** What /readyz answers. */
  readonly readiness: () => Promise<{
    readonly ok: boolean;
    readonly checks: Readonly<Record<string, { readonly ok: boolean } | undefined>>;
  }>;
  /**
   * The audit chain beside the last signed checkpoint (`lastAt` in epoch ms), and whether the
   * last walk of the chain found it broken.
   */
  readonly audit: () => Promise<{
    readonly entriesAfter: number;
    readonly lastAt: number;
    readonly chainBroken: boolean;
  }>;
  readonly now: () => number;
}

const secondsUntil = (at: number | null, now: number) =>
  at === null ? 0 : Math.max(0, Math.ceil((at - now) / 1_000));

/**
 * One limit per connection, rule and period: a limit the platform reported for one endpoint shares its rule
 * and period with the others, and the endpoint (a path) is no label, so the tightest one stands
 * for them, which is the one an alert must see.
 */
function tightestPerRule(limits: readonly ScrapedLimit[]): ScrapedLimit[] {
  const tightest = new Map<string, ScrapedLimit>();
  for (const limit of limits) {
    const key = `${limit.connection}\u0000${limit.ruleId}\u0000${limit.period}`;
    const kept = tightest.get(key);
    if (!kept || limit.limit - limit.used < kept.limit - kept.used) tightest.set(key, limit);
  }
  return [...tightest.values()];
}

/**
 * Returns the metrics route's `beforeScrape`: reads every source, then sets the gauges in one go
 * (a family is never seen half-filled). A source that fails leaves its gauges as they were, except
 * readiness, which then reads as not ready: a scrape never fails because one part did.
 */
export function scrapeGauges(metrics: ConsoleMetrics, sources: ScrapeSources) {
  return async () => {
    const [limits, integrations, readiness, audit] = await Promise.allSettled([
      sources.limits(),
      sources.integrations(),
      sources.readiness(),
      sources.audit(),
    ]);
    const now = sources.now();
    if (limits.status === 'fulfilled') {
      for (const gauge of [
        metrics.rateLimitRemaining,
        metrics.rateLimitLimit,
        metrics.rateLimitResetSeconds,
        metrics.rateLimitBlockedSeconds,
      ]) {
        gauge.reset();
      }
      for (const limit of tightestPerRule(limits.value)) {
        const labels = { connection: limit.connection, rule: limit.ruleId, period: limit.period };
        metrics.rateLimitRemaining.set(labels, Math.max(0, limit.limit - limit.used));
        metrics.rateLimitLimit.set(labels, limit.limit);
        metrics.rateLimitResetSeconds.set(labels, secondsUntil(limit.resetsAt, now));
        metrics.rateLimitBlockedSeconds.set(labels, secondsUntil(limit.blockedUntil, now));
      }
    }
    if (integrations.status === 'fulfilled') {
      // Reset first: a removed integration's series goes rather than freezing at its last value.
      metrics.integrationRequests.reset();
      metrics.integrationThrottled.reset();
      for (const integration of integrations.value) {
        const labels = { connection: integration.connection, integration: integration.name };
        metrics.integrationRequests.set(
          { ...labels, period: 'MINUTE' },
          integration.requestsLastMinute,
        );
        metrics.integrationRequests.set(
          { ...labels, period: 'HOUR' },
          integration.requestsLastHour,
        );
        metrics.integrationThrottled.set(
          { ...labels, period: 'HOUR' },
          integration.throttledLastHour,
        );
      }
    }
    metrics.ready.set(readiness.status === 'fulfilled' && readiness.value.ok ? 1 : 0);
    if (readiness.status === 'fulfilled') {
      for (const [check, result] of Object.entries(readiness.value.checks)) {
        if (result) metrics.readinessChecks.set({ check }, result.ok ? 1 : 0);
      }
    }
    if (audit.status === 'fulfilled') {
      metrics.auditEntriesAfterCheckpoint.set(audit.value.entriesAfter);
      metrics.auditCheckpointTimestamp.set(Math.floor(audit.value.lastAt / 1_000));
      metrics.auditChainBroken.set(audit.value.chainBroken ? 1 : 0);
    }
  };
}
