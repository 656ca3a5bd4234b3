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
import { connectionPagePath, DEFAULT_CONNECTION } from '../../shared/connections';
import type { AlertScheduler } from './alert-dispatcher';
import type { AlertEvent } from './alert-payload';
import type { AlertService, EmitOptions } from './alert-service';
import type { AlertConditions } from './alert-conditions';
import type { AlertStore } from './alert-store';
import { forecastLimit, limitKey, pastThreshold, type UsageSource } from './forecast';

/** The platform connection a monitor watches, as its alerts name it. */
export interface WatchedConnection {
  readonly name: string;
  readonly label: string;
  /**
   * Whether each summary starts with the label. Only where the console serves more than one
   * connection: "Default: …" before every alert of a single-connection console says nothing.
   */
  readonly named: boolean;
  /** Whether the alerts page's forecast is this connection's (the first connection's). */
  readonly onAlertsPage: boolean;
}

/** A single-connection console's one connection. */
const ONLY_CONNECTION: WatchedConnection = {
  name: DEFAULT_CONNECTION,
  label: 'Default',
  named: false,
  onAlertsPage: true,
};

export interface AlertMonitorOptions {
  readonly service: AlertService;
  /**
   * The connection whose usage, governor and incidents this monitor watches: one monitor per
   * connection, since each is another account with its own limits. Default: `default`, alone.
   */
  readonly connection?: WatchedConnection;
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

  readonly #connection: WatchedConnection;

  constructor(options: AlertMonitorOptions) {
    this.#options = options;
    this.#connection = options.connection ?? ONLY_CONNECTION;
  }

  /**
   * A key of this connection's: `default`'s keep the keys they always had (an upgraded console's
   * queued alerts and firing conditions stay recognised), another's start with its name, so two
   * accounts' incident keys or limits never deduplicate each other's alerts.
   */
  #key(key: string): string {
    const { name } = this.#connection;
    return name === DEFAULT_CONNECTION ? key : `${name}:${key}`;
  }

  /** The console page of this connection's `page` (`rate-limits`), when PUBLIC_URL is known. */
  #page(page: string): string | null {
    return this.#options.service.link(connectionPagePath(this.#connection.name, page));
  }

  /** Queues `event` as this connection's: named, keyed and recorded as its. */
  #emit(event: AlertEvent & { type: AlertEventType }, options: EmitOptions): Promise<number> {
    const { name, label, named } = this.#connection;
    return this.#options.service.emit(
      {
        ...event,
        summary: named ? `${label}: ${event.summary}` : event.summary,
        connection: { name, label },
      },
      { ...options, dedupKey: this.#key(options.dedupKey), connection: name },
    );
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
    const { now } = this.#options;
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
    const link = this.#page('rate-limits');
    const what = incident.scope === 'account' ? 'the whole account' : `the requests under ${rule}`;
    await this.#emit(
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
    await this.#emit(
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
    await this.#emit(
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
    const { conditions, repeatMs = null } = this.#options;
    const key = this.#key(`${type}:${limitKey}`);
    const change = holds ? await conditions.firing(key, at, repeatMs) : await conditions.calm(key);
    if (change.kind === 'none') return;
    const resolved = change.kind === 'resolved';
    await this.#emit(
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
    // The forecast behind a limit alert: the alerts page shows the first connection's; another's
    // headroom is on its rate-limits page.
    const link = this.#connection.onAlertsPage
      ? service.link('/alerts')
      : this.#page('rate-limits');
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
      await this.#emit(
        {
          type: 'governor.holding',
          occurredAt: iso(at),
          summary: `The console has been holding requests back for ${seconds} s (since ${iso(since)}) to keep within the platform's limits.`,
          data: { since: iso(since), seconds },
          link: this.#page('rate-limits'),
        },
        {
          // One per episode: the episode's start is its key.
          dedupKey: `holding:${since}`,
          filter: (destination) => seconds >= destination.holdBackSeconds,
        },
      );
    }
    for (const reporter of (await this.#options.silentReporters?.()) ?? []) {
      await this.#reporterSilent(reporter.name, reporter.lastReportAt);
    }
  }

  /**
   * An integration reporting to this connection stopped reporting: one alert per silence.
   * `silentSince` is the time of its last report (epoch ms).
   */
  #reporterSilent(name: string, silentSince: number): Promise<number> {
    const since = new Date(silentSince).toISOString();
    return this.#emit(
      {
        type: 'reporter.silent',
        occurredAt: iso(this.#options.now()),
        summary: `The integration "${name}" has not reported since ${since}; the account-wide numbers miss its requests.`,
        data: { integration: name, lastReportAt: since },
        link: this.#page('rate-limits'),
      },
      { dedupKey: `reporter-silent:${name}:${since}` },
    );
  }
}
