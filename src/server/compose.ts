// The composition root: builds the BFF from its configuration as a short list of area modules
// (area-module.ts) standing on the infrastructure below them: the database, Redis, the governor,
// the upstream transport, token manager and client, metrics. Each area owns its routes, use
// cases, store and jobs; this file only says which area gets what, and in which order they start
// and stop. Tests and benchmarks use it as the process entry does.
import type { RedisClient } from './redis/redis-connection';
import type { DataSubjectOperation } from '../shared/data-subject-operations';
import { EVENT_TYPES_OPERATION } from '../shared/event-types';
import { endpointKey, MODULE_RULES } from '../shared/rate-limits';
import type { RateLimitRule } from '../shared/rate-limits';
import type { Worker } from 'node:worker_threads';
import type { Config } from './config/config';
import { createApp } from './app';
import { composeConnection, type ConnectionStack } from './connection-stack';
import { forConnection, type AreaModule } from './runtime/area-module';
import { startWorker } from './runtime/start-worker';
import { accountUsageSource } from './alerts/account-usage-source';
import { consoleUsageSource } from './alerts/console-usage-source';
import { createAlertsArea } from './alerts/alerts-module';
import { createAuthArea } from './auth/auth-module';
import type { ProviderFetch } from './auth/oidc-discovery';
import { liveSessionUser } from './auth/require-session';
import { sessionIdHash } from './auth/session-store';
import { createDataSubjectsArea } from './data-subjects/data-subjects-module';
import { loadOperationsCatalog } from './data-subjects/operations-file';
import type { DemoControlsPort } from './demo/demo-controls-routes';
import {
  createIntegrationsArea,
  type IntegrationsConnection,
} from './integrations/integrations-module';
import { createPlanningArea, type PlanningArea } from './planning/planning-module';
import type { ConnectionPolicy } from './planning/policies';
import { ReplayGate } from './planning/replay-gate';
import type { WhatIfResult } from '../shared/planning';
import { createOverviewArea } from './rate-limits/overview-routes';
import type { ReplayDatabase } from './planning/replay-worker';
import { addToAccountTraffic } from './planning/traffic-store';
import type { DemoTrafficPort } from './integrations/demo-integrations';
import type { Logger } from './observability/logger';
import type { SqlDatabase } from './store/database';
import { openConsoleStore } from './store/open-store';
import { clientAddress } from './security/web-settings';
import { changeRecorder } from './http/admin-change';
import { createHttpTransport, type Transport } from './upstream/http-transport';
import {
  startConnectionCountersAtZero,
  startConsoleCountersAtZero,
} from './observability/alerting-baseline';
import { createConsoleHealth } from './observability/console-health';
import { createConsoleMetrics } from './observability/console-metrics';
import { createReadiness } from './observability/readiness';
import { scrapeGauges } from './observability/scrape-gauges';
import { consoleKeys } from './redis/redis-keys';

export interface ComposeOptions {
  config: Config;
  logger: Logger;
  /** The upstream base URL; in demo mode, the address the built-in mock listens on. */
  upstreamBaseUrl: string;
  /** Replaces the HTTP transport (tests); defaults to the keep-alive undici transport. */
  transport?: Transport;
  now?: () => number;
  /**
   * The open database every area's store borrows; without one, an in-memory database for this
   * process (tests, benchmarks).
   */
  database?: SqlDatabase;
  /** Demo mode: the built-in mock's controls, driven in-process by the demo panel. */
  demoControls?: DemoControlsPort;
  /**
   * Where the connections after the first are reached, by name, when not at their configured
   * base URL (demo mode: each one's own mock); `upstreamBaseUrl` is the first connection's.
   */
  connectionBaseUrls?: Readonly<Record<string, string>>;
  /** Demo mode: the mock controls of the connections after the first, by name. */
  connectionDemoControls?: Readonly<Record<string, DemoControlsPort>>;
  /** Module rate-limit rules instead of the published ones of docs/rate-limit-model.md (tests). */
  moduleRules?: readonly RateLimitRule[];
  /**
   * The data-subject operations catalog, overrides applied; default: read
   * DATA_SUBJECT_OPERATIONS_FILE (index.ts reads it first, so a bad file stops start at once).
   */
  dataSubjectOperations?: readonly DataSubjectOperation[];
  /**
   * Key of the audit trail's identifier HMAC; default AUDIT_KEY, else a random key for this process
   * (tests). index.ts passes demo mode's key file.
   */
  auditKey?: string;
  /** The open Redis connection (REDIS_URL): replicas share limits, blocks and sessions. */
  redis?: RedisClient;
  /** Report the process's CPU, memory and event-loop metrics too (the process entry does). */
  processMetrics?: boolean;
  /** Demo mode: the mock's simulated other clients, shown as reporting integrations. */
  demoTraffic?: DemoTrafficPort;
  /** Where the last good event-types list survives a restart (index.ts: under DATA_DIR). */
  lastGoodEventTypesFile?: string;
  /**
   * Areas beside the console's own, after them in the list (tests: an area whose readiness
   * check fails).
   */
  extraAreas?: readonly AreaModule[];
  /** Runs the audit trail's daily retention and chain walk (the process entry does). */
  auditMaintenance?: boolean;
  /** Replaces fetch for the calls to the identity provider (tests: tampered answers). */
  providerFetch?: ProviderFetch;
  /**
   * Where `database` lives, for the threads what-if replays run in (index.ts); without it replays
   * run on the event loop (an in-memory database: tests).
   */
  replayDatabase?: ReplayDatabase;
}

/** A connection's stack as the integrations area reads it. */
const integrationsConnection = (stack: ConnectionStack): IntegrationsConnection => ({
  name: stack.connection.name,
  governor: stack.rateLimiting.governor,
  incidents: stack.rateLimiting.store,
});

/**
 * Starts the thread of one what-if replay from its entry (replay-thread.ts, composed here beside
 * the console): the TypeScript source from a checkout, the bundled file after a build.
 */
export const startReplayThread = (): Worker =>
  startWorker(
    new URL('./replay-thread.ts', import.meta.url),
    new URL('./replay-thread.js', import.meta.url),
  );

/** A connection as its alerts name it (alert-monitor.ts). */
const watched = (stack: ConnectionStack, named: boolean, onAlertsPage: boolean) => ({
  name: stack.connection.name,
  label: stack.connection.label,
  named,
  onAlertsPage,
});

/** The composed BFF: its app, its areas' parts tests read, and its start and shutdown. */
export function composeBff({
  config,
  logger,
  upstreamBaseUrl,
  transport,
  now = Date.now,
  database,
  demoControls,
  connectionBaseUrls,
  connectionDemoControls,
  moduleRules,
  dataSubjectOperations,
  auditKey,
  lastGoodEventTypesFile,
  redis,
  processMetrics,
  demoTraffic,
  extraAreas = [],
  auditMaintenance = false,
  providerFetch,
  replayDatabase,
}: ComposeOptions) {
  // Infrastructure: metrics, the one database every store borrows (the one handed in, else in
  // memory for this process), and the Redis keys: the console-wide ones (sessions, throttles) and
  // the connection's (windows, blocks), each family under one hash tag so it works on a Redis
  // Cluster too. The one connection today is the first; its settings are config's top-level ones.
  const metrics = createConsoleMetrics({ processMetrics: processMetrics ?? false });
  const consoleStore = openConsoleStore(database);
  const consoleRedisKeys = consoleKeys(config);
  const shared = redis ? { connection: redis, keys: consoleRedisKeys } : undefined;

  // Every area records its administrative changes in the audit trail through this one port; the
  // store is read when a change is made (the data-subjects area is built after the others).
  const recordChange = changeRecorder({
    record: (change) => dataSubjects.audit.records.recordChange(change),
    clientAddress: (c) => clientAddress(c, config.web),
    now,
    onFailure: (error, change) =>
      logger.error(
        { err: error, action: change.action, reqId: change.requestId },
        'administrative change refused: its audit entry could not be written',
      ),
  });
  const authArea = createAuthArea({
    config,
    logger,
    now,
    store: consoleStore,
    redis: shared,
    recordChange,
    ...(providerFetch ? { providerFetch } : {}),
  });
  const { auth } = authArea;
  // One stack per platform connection: its governor, incidents, token, upstream client, event
  // types and demo controls (connection-stack.ts). The console-wide areas below that still serve
  // one platform account use the first connection's (docs/architecture.md, "Connections").
  const httpTransport =
    transport ??
    createHttpTransport({
      timeoutMs: config.upstream.timeoutMs,
      maxAnswerBytes: config.upstream.maxAnswerBytes,
    });
  const sessionAlive = async (sessionId: string) =>
    (await liveSessionUser(auth, sessionId, { extend: false })) !== undefined;
  const stacks = config.connections.map((connection, index) =>
    composeConnection({
      connection,
      config,
      baseUrl:
        index === 0
          ? upstreamBaseUrl
          : (connectionBaseUrls?.[connection.name] ?? connection.upstream.baseUrl ?? ''),
      logger,
      now,
      transport: httpTransport,
      metrics,
      database: consoleStore.database,
      persistentDatabase: database,
      redis,
      consoleProbe: consoleRedisKeys.probe,
      moduleRules,
      recordChange,
      sessionAlive,
      lastGoodEventTypesFile,
      demoControls: index === 0 ? demoControls : connectionDemoControls?.[connection.name],
    }),
  );
  const primary = stacks[0] as ConnectionStack;
  const { rateLimiting, tokens, upstream } = primary;
  // A session's live streams end when it ends, on every connection.
  auth.sessionEnds.add((handle) => {
    for (const stack of stacks) {
      stack.rateLimits.streams.endSessions((sessionId) => sessionIdHash(sessionId) === handle);
    }
  });
  const operations =
    dataSubjectOperations ?? loadOperationsCatalog(config.dataSubjects.operationsFile);
  // Alerting counters start at 0 for every connection, rule and operation, before anything
  // happens. Data-subject lookups still reach the first connection only (connection-stack.ts).
  startConsoleCountersAtZero(metrics);
  for (const [index, stack] of stacks.entries()) {
    startConnectionCountersAtZero(metrics, stack.connection.name, {
      rules: stack.rateLimiting.governor.rules().map((rule) => rule.id),
      operations: [
        ...stack.operationIds,
        ...(index === 0 ? operations.map((operation) => operation.id) : []),
      ],
    });
  }

  // The areas. Their order is the start order; they stop in reverse.
  // The demo's integrations report through the real ingest route, in-process (app, below).
  const integrationsArea = createIntegrationsArea({
    recordChange,
    settings: config.integrations,
    database: consoleStore.database,
    // Each connection's registry and account-wide view reads that connection's governor.
    connections: [integrationsConnection(primary), ...stacks.slice(1).map(integrationsConnection)],
    logger,
    now,
    web: config.web,
    redis: shared,
    // Every stored report also adds to the account's per-minute totals the planning area replays.
    alsoRecord: addToAccountTraffic,
    demo: demoTraffic && {
      traffic: demoTraffic,
      probe: () => upstream.send(EVENT_TYPES_OPERATION),
      deliver: (url, init) => Promise.resolve(app.request(new URL(url).pathname, init)),
    },
  });
  const { integrations } = integrationsArea;
  /** What one connection's alert monitor reads: its governor and its account-wide view. */
  const watchedAccount = (stack: ConnectionStack) => {
    const { governor, hub } = stack.rateLimiting;
    const usage = integrations.usageOf.get(stack.connection.name);
    if (!usage) return { governor, hub };
    return {
      governor,
      hub,
      usage: accountUsageSource(consoleUsageSource(governor), usage),
      silentReporters: async () =>
        (await usage.overview()).integrations
          .filter((integration) => integration.stale && integration.lastReportAt !== null)
          .map((integration) => ({
            name: integration.name,
            lastReportAt: Date.parse(integration.lastReportAt ?? ''),
          })),
    };
  };
  const alerts = createAlertsArea({
    recordChange,
    onDeliveryOutcome: (outcome) => metrics.alertDeliveries.inc({ outcome }),
    config,
    database: consoleStore.database,
    // One monitor per connection, each alert naming its connection; the label leads each
    // summary only where there are several. Each forecast reads its connection's whole account:
    // the console's own requests there plus those of every integration reporting to it.
    connections: [
      { connection: watched(primary, stacks.length > 1, true), ...watchedAccount(primary) },
      ...stacks
        .slice(1)
        .map((stack) => ({ connection: watched(stack, true, false), ...watchedAccount(stack) })),
    ],
    logger,
    now,
  });
  const dataSubjects = createDataSubjectsArea({
    recordChange,
    database: consoleStore.database,
    connections: stacks.map((stack) => ({ name: stack.connection.name, upstream: stack.upstream })),
    operations,
    auditKey: auditKey ?? config.dataSubjects.auditKey,
    settings: config.dataSubjects,
    logger,
    now,
    publishCheckpoint: (checkpoint) => alerts.alerting.service.auditCheckpoint(checkpoint),
    publishEntry: (entry) => alerts.alerting.service.auditEntry(entry),
    clientAddress: (c) => clientAddress(c, config.web),
    dailyMaintenance: auditMaintenance,
    beforeLookup: authArea.recentAuthentication,
  });
  // Planning per connection: each records its connection's console traffic (its governor's events)
  // and replays that connection's recorded traffic, under its own policy or another connection's.
  const planningPolicies: ConnectionPolicy[] = stacks.map((stack) => ({
    name: stack.connection.name,
    label: stack.connection.label,
    inForce: {
      policy: stack.config.rateLimits.policy,
      tier: stack.config.upstream.accountTier,
      overrides: {
        account: stack.config.rateLimits.accountOverride,
        ...(stack.config.rateLimits.endpointMinuteLimit === undefined
          ? {}
          : { endpointMinute: stack.config.rateLimits.endpointMinuteLimit }),
      },
      moduleRules: moduleRules ?? MODULE_RULES,
    },
  }));
  // One gate for the replica: REPLAY_CONCURRENCY bounds the replays this process runs, whatever
  // connection they replay, since they share its CPU and database (docs/planning.md).
  const replayGate = new ReplayGate<WhatIfResult>({
    limit: config.planning.replayConcurrency,
    now,
  });
  const plannings = stacks.map((stack, index) =>
    forConnection(
      createPlanningArea({
        database: consoleStore.database,
        connection: stack.connection.name,
        // The integrations' reports, read through their area: only its SQL names its tables.
        reportedMinutes: integrations.reportedMinutes(stack.connection.name),
        events: stack.rateLimiting.governor.events,
        inForce: (planningPolicies[index] as ConnectionPolicy).inForce,
        connections: planningPolicies,
        retentionDays: config.integrations.retentionDays,
        operations,
        integrationNames: () => integrations.store.names(),
        logger,
        now,
        replayGate,
        ...(replayDatabase
          ? { replayThreads: { database: replayDatabase, spawn: startReplayThread } }
          : {}),
      }),
      stack.connection.name,
    ),
  );
  // The rate-limits page's overview of every connection, read from each stack's governor and
  // token manager (nothing is sent upstream for it).
  const overview = createOverviewArea({
    connections: stacks.map((stack) => ({
      name: stack.connection.name,
      label: stack.connection.label,
      colour: stack.connection.colour,
      tier: stack.config.upstream.accountTier,
      governor: stack.rateLimiting.governor,
      governorMode: () => stack.rateLimits.scaleOut.mode(),
      lastTokenFailure: () => stack.tokens.lastFailure(),
    })),
    logger,
    now,
  });
  const areas: AreaModule[] = [
    authArea,
    // Each connection's governor first: blocks from before a restart hold before anything is sent.
    ...stacks.flatMap((stack) => stack.areas),
    overview,
    integrationsArea,
    alerts,
    dataSubjects,
    ...plannings,
    ...extraAreas,
  ];

  // The checks behind /readyz and /api/health: what each console-wide area declares, and each
  // connection's own, named for it (connection-stack.ts); collected once.
  const connectionAreas = new Set(stacks.flatMap((stack) => stack.areas));
  const checks = [
    ...areas.filter((area) => !connectionAreas.has(area)).flatMap((area) => area.readiness ?? []),
    ...stacks.flatMap((stack) => stack.readiness),
  ];
  // GET /readyz: the checks above; 503 while shutting down.
  const readiness = createReadiness(checks);
  const refreshScrapedGauges = scrapeGauges(metrics, {
    limits: async () =>
      (
        await Promise.all(
          stacks.map(async (stack) =>
            (await stack.rateLimiting.governor.usage()).map((limit) => ({
              ...limit,
              connection: stack.connection.name,
            })),
          ),
        )
      ).flat(),
    // Every connection's integrations, each labelled with the account it reports for.
    integrations: async () =>
      (
        await Promise.all(
          [...integrations.usageOf].map(async ([connection, usage]) =>
            (await usage.overview()).integrations.map((row) => ({ ...row, connection })),
          ),
        )
      ).flat(),
    readiness: () => readiness.check(),
    audit: () => dataSubjects.auditChainHealth(),
    now,
  });
  const app = createApp({
    logger,
    staticDir: config.staticDir,
    auth,
    areas,
    connections: stacks.map((stack) => stack.connection.name),
    meta: {
      mode: config.mode,
      accountTier: config.upstream.accountTier,
      demoControls: demoControls !== undefined,
      // For "Copy for support": what a vendor's support desk asks first. The client id is not a
      // secret (it names the credential); the secret never leaves the BFF.
      serviceHost: new URL(upstreamBaseUrl).host,
      oauthClientId: config.oauth.clientId,
      lookupPurpose: {
        mode: config.dataSubjects.purposeMode,
        categories: [...config.dataSubjects.purposeCategories],
      },
      operations: Object.fromEntries([
        [
          EVENT_TYPES_OPERATION.id,
          endpointKey(EVENT_TYPES_OPERATION.method, EVENT_TYPES_OPERATION.path),
        ],
        [rateLimiting.tokenOperation.id, endpointKey('POST', rateLimiting.tokenOperation.path)],
        ...operations.map((operation) => [
          operation.id,
          endpointKey(operation.method, operation.path),
        ]),
      ]),
    },
    readiness: readiness.check,
    health: createConsoleHealth({
      checks,
      lastTokenFailure: () => tokens.lastFailure(),
      heldBack: primary.heldBack,
    }),
    metrics: {
      metrics,
      token: config.metrics.token,
      beforeScrape: async () => {
        for (const stack of stacks) {
          metrics.sseClients.set(
            { connection: stack.connection.name },
            stack.rateLimiting.hub.size,
          );
        }
        await refreshScrapedGauges();
      },
    },
  });
  return {
    app,
    tokens,
    auth,
    rateLimiting,
    /** Every connection's parts, in the configured order; the first is the one above. */
    connections: stacks,
    /** The account-wide view; `integrations.usage.perLimit()` is the per-limit seam. */
    integrations,
    /** The first connection's what-if and migration readiness: its recorded traffic (tests). */
    planning: plannings[0] as PlanningArea,
    /** Every connection's planning area, in the configured order. */
    plannings,
    /** The lookup audit trail's chain, records and search (tests read it). */
    audit: dataSubjects.audit,
    /** What is kept beside the trail (tests read it). */
    auditEvidence: dataSubjects.auditEvidence,
    /** Early warning and alerts (tests drive its outbox and monitor). */
    alerting: alerts.alerting,
    /** The audit trail's maintenance: retention and a walk of the chain (`npm run audit`). */
    auditMaintenance: dataSubjects.maintenance,
    metrics,
    /** Starts every area's jobs in order (blocks restored before anything is sent); await it. */
    async ready() {
      for (const area of areas) await area.start();
    },
    /** Shutdown begins: /readyz answers 503 so the load balancer sends no more browsers here. */
    drain: () => readiness.drain(),
    /** Ends the live incident streams so a graceful shutdown is not held up by them. */
    closeStreams: () => {
      for (const stack of stacks) stack.rateLimiting.hub.closeAll();
    },
    /** Stops the areas in reverse order, then releases the database and the transport. */
    async close() {
      for (const area of [...areas].reverse()) await area.stop();
      await consoleStore.close();
      if ('close' in httpTransport && typeof httpTransport.close === 'function') {
        await httpTransport.close();
      }
    },
  };
}
