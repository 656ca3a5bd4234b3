// Watches what the console already knows and raises alert events from it: incident changes from
// the incident hub (new incident, block started, block ended), and every few seconds the usage
// forecast (near-limit, forecast exhaustion: once per episode, then "resolved", see
// alert-conditions.ts) and the governor's request timeline (requests held back for longer than a
// destination allows). It changes nothing it watches.
import { blockOfLimit, type BlockState } from '../../shared/limit-state';
import type { Incident } from '../../shared/incident';
import type { LimitForecast } from '../../shared/alerts';
import { ALERT_LIMITS, type AlertEventType } from '../../shared/alerts';
import { limitName } from '../../shared/rate-limits';
import type { RequestTimeline } from '../governor/request-timeline';
import type { Logger } from '../observability/logger';
import type { AlertScheduler } from './alert-dispatcher';
import type { AlertService } from './alert-service';
import type { AlertConditions } from './alert-conditions';
import type { AlertStore } from './alert-store';
import { forecastLimit, limitKey, pastThreshold, type UsageSource } from './forecast';

export interface AlertMonitorOptions {
  readonly service: AlertService;
  readonly store: AlertStore;
  /** Which limit conditions are firing (shared by replicas through the database). */
  readonly conditions: AlertConditions;
  /**
   * A limit that stays past its threshold (or keeps running out) is alerted again after this
   * long (ALERT_REPEAT_HOURS); null: once per episode, then "resolved".
   */
  readonly repeatMs?: number | null;
  readonly usage: UsageSource;
  readonly timeline: Pick<RequestTimeline, 'snapshot'>;
  readonly logger: Logger;
  readonly now: () => number;
  /**
   * Integrations that have stopped reporting (the account-wide view's stale reporters): each
   * raises one `reporter.silent` alert per silence.
   */
  readonly silentReporters?: () => Promise<ReadonlyArray<{ name: string; lastReportAt: number }>>;
  /** How often the forecast and the governor are looked at (default 5 s). */
  readonly intervalMs?: number;
  readonly scheduler: AlertScheduler;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The forecast of every limit now, with the configured thresholds. */
export async function currentForecast(
  usage: UsageSource,
  store: AlertStore,
  now: number,
  blocks: readonly BlockState[] = [],
): Promise<LimitForecast[]> {
  const [samples, thresholds] = await Promise.all([usage.sample(), store.thresholds()]);
  return samples.map((sample) =>
    forecastLimit(
      sample,
      thresholds.get(limitKey(sample.ruleId, sample.period)) ??
        ALERT_LIMITS.thresholdPercent.default,
      now,
      blockOfLimit(sample, blocks),
    ),
  );
}

/**
 * Since when the governor has been refusing requests without a break, from its timeline: the
 * start of the run of buckets with refusals that reaches the current bucket (or the one before,
 * which the current one may not have caught up with yet). Null when it is not refusing.
 */
export function holdingSince(timeline: Pick<RequestTimeline, 'snapshot'>): number | null {
  const { refused, start, bucketSeconds } = timeline.snapshot();
  let last = refused.length - 1;
  if ((refused[last] ?? 0) === 0) last -= 1;
  if (last < 0 || (refused[last] ?? 0) === 0) return null;
  let first = last;
  while (first > 0 && (refused[first - 1] ?? 0) > 0) first -= 1;
  return start + first * bucketSeconds * 1_000;
}

/** Raises alert events; start() after the app is ready, stop() on shutdown. */
export class AlertMonitor {
  readonly #options: AlertMonitorOptions;
  #timer: unknown;
  #stopped = true;

  constructor(options: AlertMonitorOptions) {
    this.#options = options;
  }

  start(): void {
    this.#stopped = false;
    this.#schedule();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#options.scheduler.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(): void {
    this.#timer = this.#options.scheduler.setTimeout(() => {
      void this.evaluate()
        .catch((error: unknown) =>
          this.#options.logger.warn({ err: error }, 'could not evaluate the alert rules'),
        )
        .finally(() => {
          if (!this.#stopped) this.#schedule();
        });
    }, this.#options.intervalMs ?? 5_000);
  }

  /** An incident change from the hub (every replica's, in order). */
  async onIncident(incident: Incident): Promise<void> {
    const { service, now } = this.#options;
    const rule =
      incident.ruleId === null
        ? 'a limit the console does not know'
        : `the ${limitName(incident.ruleId, incident.period ?? undefined)}`;
    const data = {
      rule: incident.ruleId,
      period: incident.period,
      scope: incident.scope,
      hits: incident.hits,
      requestsAllowed: incident.requestsAllowed,
      requestsMade: incident.requestsMade,
      retryAfterSeconds: incident.retryAfterSeconds,
      blockedUntil: incident.blockedUntil,
    };
    const link = service.link('/rate-limits');
    const what = incident.scope === 'account' ? 'the whole account' : `the requests under ${rule}`;
    await service.emit(
      {
        type: 'incident.new',
        occurredAt: incident.firstSeen,
        summary: `The platform refused a request (429) under ${rule}; it blocks ${what} until ${incident.blockedUntil}.`,
        data,
        link,
      },
      { dedupKey: `incident:${incident.key}` },
    );
    const until = Date.parse(incident.blockedUntil);
    if (!(until > now())) return;
    await service.emit(
      {
        type: 'block.started',
        occurredAt: incident.firstSeen,
        summary: `A block started: the platform refuses ${what} until ${incident.blockedUntil}.`,
        data,
        link,
      },
      { dedupKey: `block-start:${incident.key}` },
    );
    // Queued now, due when the block ends: it survives a restart like any other alert, and moves
    // later when a further 429 lengthens the block.
    await service.emit(
      {
        type: 'block.ended',
        occurredAt: incident.blockedUntil,
        summary: `The block under ${rule} ended at ${incident.blockedUntil}; requests go through again.`,
        data,
        link,
      },
      { dedupKey: `block-end:${incident.key}`, dueAt: until, postpone: true },
    );
  }

  /**
   * One limit condition at `at`: alerted when it begins (and again after the repeat interval),
   * "resolved" when it ends; nothing while it stays as it was.
   */
  async #condition(
    type: Extract<AlertEventType, 'limit.near' | 'limit.forecast'>,
    limitKey: string,
    holds: boolean,
    at: number,
    text: { firing: string; resolved: string; data: Record<string, unknown>; link: string | null },
  ): Promise<void> {
    const { conditions, service, repeatMs = null } = this.#options;
    const key = `${type}:${limitKey}`;
    const change = holds ? await conditions.firing(key, at, repeatMs) : await conditions.calm(key);
    if (change.kind === 'none') return;
    const resolved = change.kind === 'resolved';
    await service.emit(
      {
        type,
        occurredAt: iso(at),
        summary: resolved ? text.resolved : text.firing,
        data: { ...text.data, status: resolved ? 'resolved' : 'firing', since: iso(change.since) },
        link: text.link,
      },
      {
        // One alert per episode and kind; a reminder is its own alert.
        dedupKey: `${key}:${change.since}:${
          resolved ? 'resolved' : change.repeat ? `repeat:${at}` : 'firing'
        }`,
      },
    );
  }

  /** Looks at the forecast and the governor once. */
  async evaluate(): Promise<void> {
    const { store, usage, timeline, now, service } = this.#options;
    const at = now();
    const link = service.link('/alerts');
    for (const forecast of await currentForecast(usage, store, at)) {
      const name = limitName(forecast.ruleId, forecast.period);
      const data = {
        rule: forecast.ruleId,
        limitName: name,
        period: forecast.period,
        limit: forecast.limit,
        used: forecast.used,
        percentUsed: forecast.percentUsed,
        thresholdPercent: forecast.thresholdPercent,
        ratePerMinute: forecast.ratePerMinute,
        exhaustsAt: forecast.exhaustsAt,
        source: forecast.source,
      };
      await this.#condition('limit.near', forecast.key, pastThreshold(forecast), at, {
        firing: `${name} is at ${forecast.percentUsed}% (${forecast.used} of ${forecast.limit}), past its ${forecast.thresholdPercent}% warning.`,
        resolved: `Resolved: ${name} is back under its ${forecast.thresholdPercent}% warning (${forecast.percentUsed}%, ${forecast.used} of ${forecast.limit}).`,
        data,
        link,
      });
      await this.#condition('limit.forecast', forecast.key, forecast.exhaustsAt !== null, at, {
        firing: `At ${forecast.ratePerMinute} requests a minute, ${name} runs out at ${forecast.exhaustsAt}.`,
        resolved: `Resolved: at ${forecast.ratePerMinute} requests a minute, ${name} no longer runs out within its window.`,
        data,
        link,
      });
    }
    const since = holdingSince(timeline);
    if (since !== null) {
      const seconds = Math.floor((at - since) / 1_000);
      await service.emit(
        {
          type: 'governor.holding',
          occurredAt: iso(at),
          summary: `The console has been holding requests back for ${seconds} s (since ${iso(since)}) to keep within the platform's limits.`,
          data: { since: iso(since), seconds },
          link: service.link('/rate-limits'),
        },
        {
          // One per episode: the episode's start is its key.
          dedupKey: `holding:${since}`,
          filter: (destination) => seconds >= destination.holdBackSeconds,
        },
      );
    }
    for (const reporter of (await this.#options.silentReporters?.()) ?? []) {
      await service.reporterSilent(reporter.name, reporter.lastReportAt);
    }
  }
}
