// One platform connection's part of the BFF (docs/architecture.md, "Connections"): its Redis keys,
// governor and incidents, token manager and upstream client, event types and, in demo mode, its
// mock's controls. compose.ts builds one per configured connection beside the console-wide areas
// (sign-in, the audit trail, alerts, integrations), which borrow a connection's parts by name.
import type { Config } from './config/config';
import type { ConnectionConfig } from './config/connection-config';
import { settingNames } from './config/connection-settings';
import type { RedisClient } from './redis/redis-connection';
import type { RateLimitRule } from '../shared/rate-limits';
import { DEFAULT_CONNECTION } from '../shared/connections';
import { TOKEN_OPERATION } from '../shared/platform-operations';
import { EVENT_TYPES_OPERATION } from '../shared/event-types';
import { forConnection, type AreaModule } from './runtime/area-module';
import { createRateLimitsArea } from './rate-limits/rate-limits-module';
import { guardTokenTransport } from './rate-limits/upstream-guard';
import { createEventTypesArea } from './event-types/event-types-module';
import { createDemoArea } from './demo/demo-module';
import type { DemoControlsPort } from './demo/demo-controls-routes';
import type { RecordChange } from './http/admin-change';
import type { Logger } from './observability/logger';
import type { ConsoleMetrics } from './observability/console-metrics';
import { tokenCheck } from './observability/readiness';
import {
  countRejections,
  observedTransport,
  observeUpstream,
} from './observability/upstream-metrics';
import { connectionKeys } from './redis/redis-keys';
import type { SqlDatabase } from './store/database';
import { filterUpstreamAnswers } from './security/upstream-answer-filter';
import type { Transport } from './upstream/http-transport';
import { traceTransport } from './upstream/traced-transport';
import { logTokenRequest } from './upstream/token-log';
import { TokenManager } from './upstream/token-manager';
import { UpstreamClient } from './upstream/upstream-client';

/** What one connection's stack is built from: its settings and what every connection shares. */
export interface ConnectionStackDeps {
  readonly connection: ConnectionConfig;
  /** The process-wide settings (the connection's own replace upstream, oauth and rateLimits). */
  readonly config: Config;
  /** Where this connection's platform is reached (in demo mode, its mock's address). */
  readonly baseUrl: string;
  readonly logger: Logger;
  readonly now: () => number;
  readonly transport: Transport;
  readonly metrics: ConsoleMetrics;
  /** The console's store, borrowed by the connection's incident store. */
  readonly database: () => Promise<SqlDatabase>;
  readonly persistentDatabase: SqlDatabase | undefined;
  readonly redis: RedisClient | undefined;
  /** The console-wide Redis slot's probe key (redis-keys.ts), asked beside the connection's. */
  readonly consoleProbe: string;
  readonly moduleRules: readonly RateLimitRule[] | undefined;
  readonly recordChange: RecordChange;
  readonly sessionAlive: (sessionId: string) => Promise<boolean>;
  /** Where the last good event-types list survives a restart; unset: kept in memory only. */
  readonly lastGoodEventTypesFile: string | undefined;
  /** Demo mode: the connection's mock's controls. */
  readonly demoControls: DemoControlsPort | undefined;
}

/**
 * The process-wide settings as one connection sees them: its upstream, credential and limits in
 * the places the areas have always read them, so an area serves any connection unchanged.
 */
export function connectionSettings(config: Config, connection: ConnectionConfig): Config {
  return {
    ...config,
    upstream: connection.upstream,
    oauth: connection.oauth,
    rateLimits: connection.rateLimits,
  };
}

/**
 * Where a connection's last good event types are kept: `default` keeps the file it always had, so
 * an upgrade keeps serving it during an outage; another connection's name goes into its own.
 */
export function lastGoodFileOf(file: string | undefined, connection: string): string | undefined {
  if (file === undefined || connection === DEFAULT_CONNECTION) return file;
  return file.replace(/(\.json)?$/, `-${connection}$1`);
}

/**
 * A check's name on /readyz: `default`'s keep the names they always had (dashboards and alert
 * rules read them); another connection's are prefixed with its name, e.g. `uat/token`.
 */
export function checkName(check: string, connection: string): string {
  return connection === DEFAULT_CONNECTION ? check : `${connection}/${check}`;
}

/** One connection's parts, built and wired; its areas are listed in the console's start order. */
export function composeConnection(deps: ConnectionStackDeps) {
  const { connection, logger, now, metrics } = deps;
  const config = connectionSettings(deps.config, connection);
  // Every metric of this connection's parts carries its name (docs/metrics.md).
  const labels = { connection: connection.name };
  // This connection's keys: one hash tag per platform account, so Redis Cluster keeps each
  // account's governor windows in one slot and two accounts never share a limit.
  const keys = connectionKeys(deps.config, connection);
  const tokenUrl = new URL(config.oauth.tokenUrl ?? `${deps.baseUrl}${TOKEN_OPERATION.path}`);
  const rateLimits = createRateLimitsArea({
    connection: connection.name,
    recordChange: deps.recordChange,
    config,
    logger,
    now,
    tokenUrl,
    database: deps.database,
    persistentDatabase: deps.persistentDatabase,
    redis: deps.redis,
    keys,
    // Readiness asks the console-wide slot too: on a cluster it may sit on another master.
    consoleProbe: deps.consoleProbe,
    moduleRules: deps.moduleRules,
    sessionAlive: deps.sessionAlive,
    observe: {
      fallbackChanged: (active) => metrics.governorFallback.set(labels, active ? 1 : 0),
      incidentStored: (incident) => metrics.incidents.inc({ ...labels, scope: incident.scope }),
      incidentWriteFailed: () => metrics.incidentWriteFailures.inc(labels),
    },
  });
  const { rateLimiting } = rateLimits;
  // Refusals are counted from the governor's events, not read back out of the 429 problems.
  countRejections(rateLimiting.governor.events, metrics, connection.name);
  const guard = rateLimiting.guard;
  // One token per replica, deliberately not shared through Redis: a replica fetches one token per
  // token lifetime (each request counted against the account's limits like any other), which is
  // nothing beside the limits; a shared cache would put a live bearer credential at rest in Redis
  // and its backups, readable by anything that can read Redis; and each replica keeps its own
  // single-flight and its one renewal per 401 without a distributed lock, unaffected by Redis
  // being away. Should the upstream ever revoke older tokens when it issues a new one (it does
  // not say), replicas would take turns renewing; console_token_requests_total would show it.
  // Failures name this connection's settings as the administrator gave them.
  const names = settingNames(connection.name, deps.config.connectionsFrom);
  const tokens = new TokenManager({
    settingNames: names,
    tokenUrl,
    clientId: config.oauth.clientId,
    clientSecret: config.oauth.clientSecret,
    ...(config.oauth.scope ? { scope: config.oauth.scope } : {}),
    clientAuth: config.oauth.clientAuth,
    defaultTtlSeconds: config.oauth.defaultTokenTtlSeconds,
    transport: guardTokenTransport(
      observedTransport(
        traceTransport(deps.transport, rateLimiting.tokenOperation.id),
        rateLimiting.tokenOperation.id,
        metrics,
        connection.name,
      ),
      guard,
      rateLimiting.tokenOperation,
    ),
    encoding: config.oauth.tokenEncoding,
    timeoutMs: config.upstream.timeoutMs,
    now,
    onTokenRequest: (event) => {
      metrics.tokenRequests.inc({ ...labels, outcome: event.outcome });
      logTokenRequest(logger, event, config.oauth.tokenEncoding, names);
    },
  });
  const upstream = new UpstreamClient({
    baseUrl: new URL(deps.baseUrl),
    transport: filterUpstreamAnswers(traceTransport(deps.transport), logger),
    tokens,
    guard,
    maxAnswerBytesByOperation: config.upstream.maxAnswerBytesByOperation,
    observe: observeUpstream(metrics, connection.name),
  });
  const eventTypes = createEventTypesArea({
    config,
    logger,
    now,
    upstream,
    lastGoodFile: lastGoodFileOf(deps.lastGoodEventTypesFile, connection.name),
  });
  const demo = deps.demoControls
    ? createDemoArea({
        recordChange: deps.recordChange,
        controls: deps.demoControls,
        upstream,
        governor: rateLimiting.governor,
        hub: rateLimiting.hub,
        now,
        prepare: () => tokens.getToken(),
      })
    : undefined;
  const heldBack = async (error: unknown) =>
    (await rateLimiting.guard.explainFailure(error)) !== undefined;
  const areas = [rateLimits, eventTypes, ...(demo ? [demo] : [])].map((area): AreaModule =>
    forConnection(area, connection.name),
  );
  return {
    connection,
    /** The settings as this connection's areas read them. */
    config,
    baseUrl: deps.baseUrl,
    rateLimits,
    rateLimiting,
    tokens,
    upstream,
    eventTypes,
    /** This connection's areas, each mounted under its prefix; the console starts them in order. */
    areas,
    /** Whether a failure was the governor holding a request back (not the platform failing). */
    heldBack,
    /** What /readyz and /api/health check of this connection, named for it. */
    readiness: [
      ...areas.flatMap((area) => area.readiness ?? []),
      // A token can be had: the platform and the credential answer. Only a connection the
      // operator marked required takes the replica out of rotation while it fails.
      {
        ...tokenCheck({ token: () => tokens.getToken(), heldBack, now }),
        required: connection.required,
      },
    ].map((check) => ({ ...check, name: checkName(check.name, connection.name) })),
    /** The operations whose counters start at zero: the event types and the token request. */
    operationIds: [EVENT_TYPES_OPERATION.id, rateLimiting.tokenOperation.id],
  };
}

export type ConnectionStack = ReturnType<typeof composeConnection>;
