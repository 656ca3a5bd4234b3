// Wires the BFF's parts from its configuration: transport, token manager, upstream client,
// event-types source and the Hono app. Tests and benchmarks use it as the process entry does.
import { randomBytes } from 'node:crypto';
import type { RedisClient } from './redis/redis-connection';
import type { DataSubjectOperation } from '../shared/data-subject-operations';
import { EVENT_TYPES_OPERATION } from '../shared/event-types';
import { endpointKey } from '../shared/rate-limits';
import type { RateLimitRule } from '../shared/rate-limits';
import type { Config } from './config';
import { createApp } from './app';
import { accountUsageSource } from './alerts/account-usage-source';
import { consoleUsageSource } from './alerts/console-usage-source';
import { createAlerting } from './alerts/create-alerting';
import { createSessionBackends } from './auth/session-backends';
import { createConsoleAuth } from './auth/console-auth';
import { createIdentifierHasher } from './data-subjects/audit/identifier-hash';
import { deriveAuditKey } from './data-subjects/audit/audit-chain';
import { createCheckpointer } from './data-subjects/audit/checkpoint-job';
import { createExportSigner } from './data-subjects/audit/export-signing';
import { LookupAudit } from './data-subjects/audit/lookup-audit';
import { DataSubjectLookups } from './data-subjects/data-subject-lookups';
import { loadOperationsCatalog } from './data-subjects/operations-file';
import { createRateLimiting } from './rate-limits/rate-limiting';
import { guardTokenTransport } from './rate-limits/upstream-guard';
import type { Logger } from './logger';
import type { DemoControlsPort } from './rate-limits/demo-controls-routes';
import { SqlAuditStore } from './data-subjects/audit/audit-store';
import type { SqlDatabase } from './store/database';
import { openConsoleStore } from './store/open-store';
import { filterUpstreamAnswers } from './security/upstream-answer-filter';
import { AnswerParser } from './upstream/answer-parser';
import { EventTypesSource } from './event-types/event-types-source';
import { createHttpTransport, type Transport } from './upstream/http-transport';
import { startAlertingCountersAtZero } from './observability/alerting-baseline';
import { createConsoleMetrics } from './observability/console-metrics';
import { StreamRegistry } from './rate-limits/stream-registry';
import { createReadiness, runExtraChecks, type ExtraCheck } from './observability/readiness';
import {
  countRejections,
  observedTransport,
  observeUpstream,
} from './observability/upstream-metrics';
import { redisKeys, redisNamespace } from './redis/redis-keys';
import { accountName, createScaleOut } from './rate-limits/scale-out';
import { createIntegrations } from './integrations/integrations';
import { DemoIntegrations, type DemoTrafficPort } from './integrations/demo-integrations';
import { logTokenRequest } from './upstream/token-log';
import { TokenManager } from './upstream/token-manager';
import { UpstreamClient } from './upstream/upstream-client';

export interface ComposeOptions {
  config: Config;
  logger: Logger;
  /** The upstream base URL; in demo mode, the address the built-in mock listens on. */
  upstreamBaseUrl: string;
  /** Replaces the HTTP transport (tests); defaults to the keep-alive undici transport. */
  transport?: Transport;
  now?: () => number;
  /** The open database (incidents); without one they are kept in memory (tests, benchmarks). */
  database?: SqlDatabase;
  /** Demo mode: the built-in mock's controls, driven in-process by the demo panel. */
  demoControls?: DemoControlsPort;
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
   * Further readiness checks (observability/readiness.ts): a required one failing takes the
   * replica out of rotation and shows the store as unavailable on /api/health.
   */
  readinessChecks?: readonly ExtraCheck[];
}

/** The composed BFF: its app and a way to release its connections. */
export function composeBff({
  config,
  logger,
  upstreamBaseUrl,
  transport,
  now,
  database,
  demoControls,
  moduleRules,
  dataSubjectOperations,
  auditKey,
  lastGoodEventTypesFile,
  redis,
  processMetrics,
  demoTraffic,
  readinessChecks = [],
}: ComposeOptions) {
  // What most parts are built with.
  const base = { config, logger, now: now ?? Date.now };
  // Prometheus metrics (GET /metrics), and what several replicas share (scale-out.ts).
  const metrics = createConsoleMetrics({ processMetrics: processMetrics ?? false });
  // Redis keys of this upstream account: replicas for the same account share them, all under one
  // hash tag so they work on a Redis Cluster too.
  const keys = redisKeys(
    redisNamespace(accountName(config, upstreamBaseUrl), config.oauth.clientId),
  );
  const scaleOut = createScaleOut({
    ...base,
    keys,
    ...(redis ? { redis } : {}),
    onFallbackChange: (active) => metrics.governorFallback.set(active ? 1 : 0),
  });
  // The one database every store borrows: the one handed in, else in memory for this process.
  const consoleStore = openConsoleStore(database);
  // Sessions and failed sign-ins in Redis when replicas share it; else sessions in the database.
  const sessionBackends = createSessionBackends({
    ...base,
    store: consoleStore,
    ...(redis ? { redis: { connection: redis, keys } } : {}),
  });
  // First, so a live mode without usable console users stops before anything else is built.
  const auth = createConsoleAuth({
    config,
    logger,
    ...(now ? { now } : {}),
    ...sessionBackends,
  });
  let retentionTimer: NodeJS.Timeout | undefined;
  // Live streams by session and user; a session's streams end when it signs out.
  const streams = new StreamRegistry();
  auth.sessionEnds.add((sessionId) => streams.endSession(sessionId));
  const httpTransport =
    transport ??
    createHttpTransport({
      timeoutMs: config.upstream.timeoutMs,
      maxAnswerBytes: config.upstream.maxAnswerBytes,
    });
  const baseUrl = new URL(upstreamBaseUrl);
  const tokenUrl = new URL(config.oauth.tokenUrl ?? `${upstreamBaseUrl}/api/access/v1/oauth/token`);
  // The rate-limit governor: every upstream call, token requests included, passes through it.
  const rateLimiting = createRateLimiting({
    ...base,
    tokenUrl,
    database: consoleStore.database,
    ...(moduleRules ? { moduleRules } : {}),
    ...scaleOut.governor,
    onIncidentStored: (incident) => metrics.incidents.inc({ scope: incident.scope }),
    onIncidentWriteFailed: () => metrics.incidentWriteFailures.inc(),
  });
  // Refusals are counted from the governor's events, not read back out of the 429 problems.
  countRejections(rateLimiting.governor.events, metrics);
  const guard = rateLimiting.guard;
  // One token per replica, deliberately not shared through Redis: a replica fetches one token per
  // token lifetime (each request counted against the account's limits like any other), which is
  // nothing beside the limits; a shared cache would put a live bearer credential at rest in Redis
  // and its backups, readable by anything that can read Redis; and each replica keeps its own
  // single-flight and its one renewal per 401 without a distributed lock, unaffected by Redis
  // being away. Should the upstream ever revoke older tokens when it issues a new one (it does
  // not say), replicas would take turns renewing; console_token_requests_total would show it.
  const tokens = new TokenManager({
    tokenUrl,
    clientId: config.oauth.clientId,
    clientSecret: config.oauth.clientSecret,
    ...(config.oauth.scope ? { scope: config.oauth.scope } : {}),
    clientAuth: config.oauth.clientAuth,
    defaultTtlSeconds: config.oauth.defaultTokenTtlSeconds,
    transport: guardTokenTransport(
      observedTransport(httpTransport, rateLimiting.tokenOperation.id, metrics),
      guard,
      rateLimiting.tokenOperation,
    ),
    encoding: config.oauth.tokenEncoding,
    timeoutMs: config.upstream.timeoutMs,
    ...(now ? { now } : {}),
    onTokenRequest: (event) => {
      metrics.tokenRequests.inc({ outcome: event.outcome });
      logTokenRequest(logger, event, config.oauth.tokenEncoding);
    },
  });
  const upstream = new UpstreamClient({
    baseUrl,
    transport: filterUpstreamAnswers(httpTransport, logger),
    tokens,
    guard,
    maxAnswerBytesByOperation: config.upstream.maxAnswerBytesByOperation,
    observe: observeUpstream(metrics),
  });
  // GET /readyz: the store, a token, Redis and the governor's mode; 503 while shutting down.
  const readiness = createReadiness({
    store: rateLimiting.readiness,
    token: () => tokens.getToken(),
    heldBack: async (error) => (await rateLimiting.guard.explainFailure(error)) !== undefined,
    shared: () => scaleOut.readiness(),
    audit: () => lookupAudit.health(),
    extraChecks: readinessChecks,
    ...(now ? { now } : {}),
  });
  // Large event-types answers are read on a worker thread, so /healthz and every other request
  // stay answered while they are (docs/architecture.md, "Large answers").
  const answerParser = new AnswerParser();
  const eventTypes = new EventTypesSource({
    upstream,
    parser: answerParser,
    timeoutMs: config.upstream.timeoutMs,
    arrayQueryStyle: config.upstream.arrayQueryStyle,
    cacheTtlMs: config.eventTypesCacheSeconds * 1000,
    ...(now ? { now } : {}),
    ...(lastGoodEventTypesFile ? { lastGoodFile: lastGoodEventTypesFile } : {}),
    onPersistError: (error) =>
      logger.warn({ err: error }, 'could not keep the last good event-types list on disk'),
  });
  // Data-subject lookups and their audit trail (docs/product.md §6), in the incidents' database.
  const operations =
    dataSubjectOperations ?? loadOperationsCatalog(config.dataSubjects.operationsFile);
  // Alerting counters start at 0 for every rule and operation, before anything happens.
  startAlertingCountersAtZero(metrics, {
    rules: rateLimiting.governor.rules().map((rule) => rule.id),
    operations: [
      EVENT_TYPES_OPERATION.id,
      rateLimiting.tokenOperation.id,
      ...operations.map((operation) => operation.id),
    ],
  });
  const lookups = new DataSubjectLookups({ operations, upstream, now: now ?? Date.now });
  const auditSecret =
    auditKey ?? config.dataSubjects.auditKey ?? randomBytes(32).toString('base64url');
  const hasher = createIdentifierHasher(auditSecret);
  // The trail's hash chain and export signatures use keys derived from the same audit key.
  const chainKey = deriveAuditKey(auditSecret, 'chain');
  const auditStore = new SqlAuditStore(consoleStore.database, { chainKey });
  const lookupAudit = new LookupAudit(auditStore, hasher, now ?? Date.now);
  // The account-wide view: integrations' reports beside the console's own use (issue: every
  // integration of the account reports to the console; docs/account-wide-view.md).
  const integrations = createIntegrations({
    settings: config.integrations,
    database: consoleStore.database,
    governor: rateLimiting.governor,
    incidents: rateLimiting.store,
    logger,
    now: now ?? Date.now,
    ...(redis ? { redis, keys } : {}),
  });
  const demoIntegrations = demoTraffic
    ? new DemoIntegrations({
        store: integrations.store,
        traffic: demoTraffic,
        logger,
        probe: () => upstream.send(EVENT_TYPES_OPERATION),
      })
    : undefined;
  if (demoIntegrations) integrations.setDemo(demoIntegrations);
  // Early warning and alerts (docs/alerts.md), in the incidents' database.
  const alertPolicy = { allowPrivate: config.alerts.allowPrivate, demo: config.mode === 'demo' };
  const alerting = createAlerting({
    database: consoleStore.database,
    governor: rateLimiting.governor,
    hub: rateLimiting.hub,
    logger,
    now: now ?? Date.now,
    http: { ...alertPolicy, timeoutMs: config.alerts.timeoutMs, maxResponseBytes: 64 * 1024 },
    maxAttempts: config.alerts.maxAttempts,
    repeatMs: config.alerts.repeatMs,
    ...(config.web.publicOrigin ? { publicOrigin: config.web.publicOrigin } : {}),
    // The forecast reads the whole account: the console's own requests plus every integration's.
    usage: accountUsageSource(consoleUsageSource(rateLimiting.governor), integrations.usage),
    silentReporters: async () =>
      (await integrations.usage.overview()).integrations
        .filter((integration) => integration.stale && integration.lastReportAt !== null)
        .map((integration) => ({
          name: integration.name,
          lastReportAt: Date.parse(integration.lastReportAt ?? ''),
        })),
  });
  // Signed checkpoints of the audit chain's head, kept where a database attacker cannot reach
  // them too (docs/audit-trail.md, "Checkpoints").
  const auditSigner = createExportSigner(auditSecret);
  const checkpointer = createCheckpointer({
    store: auditStore,
    signer: auditSigner,
    dir: config.dataSubjects.auditCheckpointDir,
    intervalMs: config.dataSubjects.auditCheckpointMinutes * 60_000,
    logger,
    now: now ?? Date.now,
    publish: (checkpoint) => alerting.service.auditCheckpoint(checkpoint),
  });
  const checkpointsToVerify = {
    publicKeyPem: auditSigner.publicKeyPem,
    sources: () => checkpointer.sources(),
  };
  let stopCheckpoints: (() => void) | undefined;
  const app = createApp({
    logger,
    eventTypes,
    arrayQueryStyle: config.upstream.arrayQueryStyle,
    staticDir: config.staticDir,
    auth,
    meta: {
      mode: config.mode,
      accountTier: config.upstream.accountTier,
      demoControls: demoControls !== undefined,
      // For "Copy for support": what a vendor's support desk asks first. The client id is not a
      // secret (it names the credential); the secret never leaves the BFF.
      serviceHost: new URL(upstreamBaseUrl).host,
      oauthClientId: config.oauth.clientId,
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
    health: async () => {
      const [store, shared, audit, extra] = await Promise.all([
        rateLimiting.readiness(),
        scaleOut.readiness(),
        lookupAudit.health(),
        runExtraChecks(readinessChecks),
      ]);
      // The last token failure, while no token has been had since: read, never a new request.
      // A request the governor holds back is the rate-limit banner's news, as on /readyz.
      const lastFailure = tokens.lastFailure();
      const signIn =
        lastFailure && !(await rateLimiting.guard.explainFailure(lastFailure))
          ? lastFailure
          : undefined;
      return {
        store: store.ok && extra.requiredOk ? 'ok' : 'unavailable',
        audit: audit.ok ? 'ok' : 'failing',
        governor: shared.governor?.mode ?? 'single',
        ...(signIn
          ? { platformSignIn: { cause: signIn.reason, title: signIn.title, detail: signIn.detail } }
          : {}),
      };
    },
    metrics: {
      metrics,
      token: config.metrics.token,
      beforeScrape: () => metrics.sseClients.set(rateLimiting.hub.size),
    },
    dataSubjects: {
      lookups,
      audit: lookupAudit,
      logger,
    },
    auditTrail: {
      store: auditStore,
      hasher,
      operations: operations.map((operation) => operation.id),
      chainKey,
      signer: auditSigner,
      checkpointer,
      checkpoints: {
        ...checkpointsToVerify,
        everyMinutes: config.dataSubjects.auditCheckpointMinutes,
        outsideDirectory: config.dataSubjects.auditCheckpointDir !== undefined,
      },
      exportMaxRecords: config.dataSubjects.auditExportMaxRecords,
      retentionDays: config.dataSubjects.auditRetentionDays,
      now: now ?? Date.now,
    },
    integrations: integrations.routes(),
    rateLimits: {
      governor: rateLimiting.governor,
      store: rateLimiting.store,
      hub: rateLimiting.hub,
      logger,
      now: now ?? Date.now,
      streams,
      sessionAlive: async (sessionId) =>
        (await auth.sessions.touch(sessionId, { extend: false })) !== undefined,
    },
    alerts: {
      alerting,
      policy: alertPolicy,
      now: now ?? Date.now,
      ruleIds: rateLimiting.governor.rules().map((rule) => rule.id),
    },
    ...(demoControls
      ? {
          demoControls: {
            controls: demoControls,
            upstream,
            governor: rateLimiting.governor,
            hub: rateLimiting.hub,
            now: now ?? Date.now,
            prepare: () => tokens.getToken(),
          },
        }
      : {}),
  });
  return {
    app,
    tokens,
    auth,
    rateLimiting,
    /** The account-wide view; `integrations.usage.perLimit()` is the per-limit seam. */
    integrations,
    /** The lookup audit trail (tests read it). */
    auditStore,
    /** Early warning and alerts (tests drive its outbox and monitor). */
    alerting,
    /** The audit trail's maintenance: retention and a walk of the chain (the daily job). */
    auditMaintenance: {
      store: auditStore,
      chainKey,
      checkpoints: checkpointsToVerify,
      retentionDays: config.dataSubjects.auditRetentionDays,
      logger,
      now: now ?? Date.now,
    },
    metrics,
    /**
     * Restores the blocks of stored incidents and starts sharing blocks and incidents with the
     * other replicas; await before serving.
     */
    async ready() {
      if (consoleStore.persistent) await rateLimiting.restoreBlocks();
      // Incidents are kept INCIDENT_RETENTION_DAYS (the audit trail has its own retention):
      // swept now and every hour, so the history and stream replay stay bounded.
      const sweep = () => {
        const at = (now ?? Date.now)();
        rateLimiting.store
          .deleteOlderThan(at - config.incidentRetentionDays * 86_400_000, at)
          .then((deleted) => {
            if (deleted > 0) logger.info({ deleted }, 'incidents past their retention deleted');
          })
          .catch((error: unknown) =>
            logger.warn({ err: error }, 'incident retention sweep failed'),
          );
      };
      sweep();
      retentionTimer = setInterval(sweep, 3_600_000).unref();
      await scaleOut.start({
        governor: rateLimiting.governor,
        hub: rateLimiting.hub,
        store: rateLimiting.store,
        database,
      });
      integrations.start();
      // The demo's integrations report through the real ingest route, in-process.
      await demoIntegrations?.start((url, init) =>
        Promise.resolve(app.request(new URL(url).pathname, init)),
      );
      // After the incident feed is wired, so alerts see every replica's incidents.
      alerting.start();
      stopCheckpoints = checkpointer.start();
    },
    /** Shutdown begins: /readyz answers 503 so the load balancer sends no more browsers here. */
    drain: () => readiness.drain(),
    /** Ends the live incident streams so a graceful shutdown is not held up by them. */
    closeStreams: () => rateLimiting.hub.closeAll(),
    async close() {
      stopCheckpoints?.();
      // The head as the console leaves it, so a cut made while it is down is caught.
      await checkpointer.take('shutdown').catch((error: unknown) => {
        logger.warn({ err: error }, 'no audit checkpoint could be taken at shutdown');
      });
      integrations.stop();
      await answerParser.close();
      await demoIntegrations?.stop();
      await alerting.stop();
      clearInterval(retentionTimer);
      await scaleOut.close();
      rateLimiting.close();
      await consoleStore.close();
      if ('close' in httpTransport && typeof httpTransport.close === 'function') {
        await httpTransport.close();
      }
    },
  };
}
