// The account-wide view's routes (docs/account-wide-view.md):
// - `POST /api/integrations/reports`: an integration's report, authenticated by its reporting key
//   as a bearer token (no session, no cookie), validated entry by entry, rate limited per key; one
//   for the console: the key says which integration, hence which connection;
// - `/api/connections/{connection}/integrations` (admins): that connection's registry: register,
//   list, rotate, revoke, remove a revoked one;
// - `GET /api/connections/{connection}/account-usage`: that connection's account-wide view, on
//   the rate-limits page (every role in it).
import { Hono } from 'hono';
import type { Context } from 'hono';
import * as z from 'zod/mini';
import {
  AccountOverviewSchema,
  IngestAnswerSchema,
  INGEST_PATH,
  IntegrationListSchema,
  IntegrationSchema,
  IssuedKeySchema,
  MinuteEntrySchema,
  REPORT_LIMITS,
  RegisterIntegrationSchema,
  ThrottleEntrySchema,
  type IngestAnswer,
  type Integration,
} from '../../shared/integrations';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { AppEnv } from '../http/app-env';
import { ADMIN_ONLY, ANY_ROLE, type ApiModule } from '../http/api-operation';
import { looksLikeReportingKey } from './integration-keys';
import { IntegrationNameTakenError, type IntegrationStore } from './integration-store';
import type { AccountUsage } from './account-usage';
import type { FailedKeyGuard } from './failed-key-guard';
import type { IngestLimiter } from './ingest-limiter';
import type { Logger } from '../observability/logger';
import type { ReportAggregates } from './report-aggregates';
import { readReport, ReportRejectedError } from './report-intake';
import { HttpProblem, problemResponse } from '../http/problem';
import { quotaRefusalHeaders } from '../http/rate-limit-fields';
import { SECURITY_PROBLEM_TYPES } from '../security/security-problems';
import { clientAddress, type WebSettings } from '../security/web-settings';
import type { ChangeDetails, RecordChange } from '../http/admin-change';
import { NO_STORE } from '../http/no-store';
import { jsonValueAnswer } from '../http/gzip-answer';

function unauthorized(): HttpProblem {
  return new HttpProblem(
    {
      type: PROBLEM_TYPES.integrationUnauthorized,
      title: 'Missing, unknown or revoked reporting key',
      status: 401,
      detail:
        'Send the integration\u2019s reporting key as "Authorization: Bearer <key>". An admin issues keys on the Integrations page.',
    },
    { 'WWW-Authenticate': 'Bearer realm="integration reports"' },
  );
}

/**
 * 429 for an address past its bound of wrong keys (failed-key-guard.ts), answered directly rather
 * than thrown: a flood gets thousands, and an Error's stack trace is the costliest part of one.
 */
function tooManyWrongKeys(c: Context, perMinute: number, retryAfterSeconds: number): Response {
  const policy = { id: 'integration-wrong-keys', quota: perMinute, windowSeconds: 60 };
  return problemResponse(
    c,
    {
      type: PROBLEM_TYPES.rateLimited,
      title: 'Too many wrong reporting keys from this address',
      status: 429,
      detail: `${perMinute} reports with a missing, unknown or revoked key came from this address within a minute; every report from it is refused for ${retryAfterSeconds} s. Check the key the integration sends.`,
      retryAfterSeconds,
    },
    quotaRefusalHeaders([policy], policy, retryAfterSeconds),
  );
}

function invalidBody(detail: string, status: 400 | 413 = 400): HttpProblem {
  return new HttpProblem({
    type: status === 413 ? SECURITY_PROBLEM_TYPES.payloadTooLarge : PROBLEM_TYPES.invalidParameter,
    title: status === 413 ? 'The report is too large' : 'The report is not valid',
    status,
    detail,
  });
}

/** 409 for removing an integration whose key still works: revoking comes first. */
function stillActive(): HttpProblem {
  return new HttpProblem({
    type: PROBLEM_TYPES.conflict,
    title: 'Revoke the integration first',
    status: 409,
    detail:
      'Only a revoked integration can be removed: revoke its key first, so nothing that still reports is taken off the list.',
  });
}

/** 404 for an id not in this connection's registry (another connection's too: nothing of it). */
function notFound(): HttpProblem {
  return new HttpProblem({
    type: PROBLEM_TYPES.notFound,
    title: 'No such integration',
    status: 404,
    detail: 'It is not registered in this connection, or was removed; reload the list.',
  });
}

/** The bearer key of the request, or undefined. */
function bearerKey(c: Context): string | undefined {
  const header = c.req.header('authorization');
  const match = header ? /^Bearer ([^\s]+)$/i.exec(header.trim()) : null;
  const key = match?.[1];
  return key && looksLikeReportingKey(key) ? key : undefined;
}

/** Demo mode: make one simulated integration burst until it draws a 429. */
export interface DemoBurstPort {
  burst(integrationId: string): Promise<{ status: number | null }>;
}

/** What the routes need of the area (integrations-module.ts builds it). */
export interface IntegrationsRoutesDeps {
  readonly store: IntegrationStore;
  readonly reports: ReportAggregates;
  readonly limiter: IngestLimiter;
  /** Wrong keys per client address, and the early refusal past their bound. */
  readonly failedKeys: FailedKeyGuard;
  readonly web: WebSettings;
  readonly logger: Logger;
  readonly now: () => number;
  /** How far back a report entry may be (the retention). */
  readonly retentionMs: number;
  readonly demo?: DemoBurstPort;
}

/** `POST /` of the ingest route, mounted at /api/integrations/reports before any session check. */
export function integrationReportRoutes(deps: IntegrationsRoutesDeps) {
  return new Hono<AppEnv>().post('/', async (c) => {
    // An address that sent too many wrong keys is refused first: no key compared, no body read.
    const address = clientAddress(c, deps.web);
    const wait = deps.failedKeys.refusedFor(address);
    if (wait > 0) {
      await deps.failedKeys.hold();
      return tooManyWrongKeys(c, deps.failedKeys.perMinute, wait);
    }
    const key = bearerKey(c);
    const integration = key ? await deps.store.authenticate(key) : undefined;
    if (!integration) {
      if (deps.failedKeys.failed(address)) {
        // The address itself is not logged: it may identify a person.
        deps.logger.warn(
          { perMinute: deps.failedKeys.perMinute },
          'too many wrong reporting keys from one address: its reports are refused for a minute',
        );
      }
      throw unauthorized();
    }
    const verdict = await deps.limiter.take(integration.id);
    if (!verdict.allowed) {
      throw new HttpProblem(
        {
          type: PROBLEM_TYPES.rateLimited,
          title: 'Too many reports from this integration',
          status: 429,
          detail: `Send at most one report every few seconds; retry in ${verdict.retryAfterSeconds} s.`,
          retryAfterSeconds: verdict.retryAfterSeconds,
        },
        quotaRefusalHeaders([deps.limiter.policy], deps.limiter.policy, verdict.retryAfterSeconds),
      );
    }
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/json')) {
      throw new HttpProblem({
        type: SECURITY_PROBLEM_TYPES.unsupportedMediaType,
        title: 'A report is JSON',
        status: 415,
        detail: 'Send the report with Content-Type: application/json.',
      });
    }
    const raw: unknown = await c.req.json().catch(() => undefined);
    let intake;
    try {
      intake = readReport(raw, { now: deps.now(), retentionMs: deps.retentionMs });
    } catch (error) {
      if (error instanceof ReportRejectedError) throw invalidBody(error.message, error.status);
      throw error;
    }
    const stored = await deps.reports.storeReport(integration.id, intake.minutes, intake.throttles);
    const reasons = Object.fromEntries(
      Object.entries(intake.dropped).filter(([, count]) => (count ?? 0) > 0),
    ) as Record<string, number>;
    const answer: IngestAnswer = {
      accepted: { minutes: intake.minutes.length, throttles: intake.throttles.length },
      aggregated: { throttles: stored.aggregated },
      ...(stored.capped.requests > 0 ? { capped: stored.capped } : {}),
      dropped: {
        total: Object.values(reasons).reduce((sum, count) => sum + count, 0),
        reasons,
      },
    };
    return c.json(answer, 202, NO_STORE);
  });
}

/** An integration as its audit entry shows it: its key never (the store keeps only a hash). */
function auditedIntegration(integration: Integration) {
  return { name: integration.name, owner: integration.owner };
}

const IdParam = z.string().check(z.regex(/^[0-9a-f-]{36}$/));

/** What one connection's registry routes need besides the area's. */
export interface IntegrationAdminDeps extends IntegrationsRoutesDeps {
  /** The connection whose registry these routes are: its integrations only, listed or changed. */
  readonly connection: string;
  /** That connection's account-wide view, recomputed after a change. */
  readonly usage: AccountUsage;
  readonly recordChange: RecordChange;
}

/**
 * One connection's admin routes, mounted at /api/connections/<name>/integrations (admins in it:
 * their API description says so). An integration of another connection is not found here.
 */
export function integrationAdminRoutes(deps: IntegrationAdminDeps) {
  const { connection } = deps;
  const recordChange = (c: Context<AppEnv>, change: ChangeDetails) =>
    deps.recordChange(c, { ...change, connection });
  const ownIntegration = async (c: Context) => {
    const parsed = IdParam.safeParse(c.req.param('id'));
    const found = parsed.success ? await deps.store.findById(parsed.data) : undefined;
    if (found?.connection !== connection) throw notFound();
    return found;
  };
  const actor = (c: Context<AppEnv>) => c.get('user')?.username;
  const changed = (c: Context<AppEnv>, action: string, integration: Integration) => {
    deps.usage.invalidate();
    deps.logger.info(
      { action, integration: integration.id, connection, by: actor(c) },
      `integration ${action}`,
    );
  };
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json({ items: await deps.store.list({ connection }) }, 200, NO_STORE))
    .post('/', async (c) => {
      const parsed = RegisterIntegrationSchema.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = String(issue?.path[0] ?? 'name');
        throw new HttpProblem({
          type: PROBLEM_TYPES.invalidParameter,
          title: 'Invalid integration',
          status: 400,
          detail: `${field}: ${issue?.message ?? 'invalid'}`,
          parameter: field,
        });
      }
      // Recorded before the key exists: the entry names the integration, never its key.
      await recordChange(c, {
        action: 'integration.added',
        target: parsed.data.name,
        before: null,
        after: { name: parsed.data.name, owner: parsed.data.owner || null },
      });
      try {
        const issued = await deps.store.register(
          parsed.data.name,
          parsed.data.owner || null,
          connection,
        );
        changed(c, 'registered', issued.integration);
        return c.json(issued, 201, NO_STORE);
      } catch (error) {
        if (error instanceof IntegrationNameTakenError) {
          throw new HttpProblem({
            type: PROBLEM_TYPES.conflict,
            title: 'That name is taken',
            status: 409,
            detail: `name: ${error.message}; choose another name, or rotate its key`,
            parameter: 'name',
          });
        }
        throw error;
      }
    })
    .post('/:id/rotate', async (c) => {
      const existing = await ownIntegration(c);
      await recordChange(c, {
        action: 'integration.key-rotated',
        target: existing.id,
        before: auditedIntegration(existing),
        after: { ...auditedIntegration(existing), key: 'replaced' },
      });
      const issued = await deps.store.rotate(existing.id);
      if (!issued) throw notFound();
      changed(c, 'key rotated', issued.integration);
      return c.json(issued, 200, NO_STORE);
    })
    .post('/:id/revoke', async (c) => {
      const existing = await ownIntegration(c);
      await recordChange(c, {
        action: 'integration.revoked',
        target: existing.id,
        before: auditedIntegration(existing),
        after: null,
      });
      const integration = await deps.store.revoke(existing.id);
      if (!integration) throw notFound();
      changed(c, 'revoked', integration);
      return c.json(integration, 200, NO_STORE);
    })
    .delete('/:id', async (c) => {
      const existing = await ownIntegration(c);
      if (existing.status === 'active') throw stillActive();
      await recordChange(c, {
        action: 'integration.removed',
        target: existing.id,
        before: auditedIntegration(existing),
        after: null,
      });
      const removed = await deps.store.remove(existing.id);
      // Rotated (so active again) by someone else since it was read: still refused.
      if (removed === 'active') throw stillActive();
      if (!removed) throw notFound();
      changed(c, 'removed', removed);
      return c.body(null, 204, NO_STORE);
    })
    .post('/:id/demo-burst', async (c) => {
      if (!deps.demo) throw notFound();
      const outcome = await deps.demo.burst((await ownIntegration(c)).id);
      deps.usage.invalidate();
      return c.json(outcome, 200, NO_STORE);
    });
}

/** `GET /` of one connection's account-wide view, mounted at its /api/account-usage (every role). */
export function accountUsageRoutes(deps: Pick<IntegrationAdminDeps, 'usage'>) {
  // Integration names and counts, no key and no echo of the request: compressed (gzip-answer.ts).
  return new Hono<AppEnv>().get('/', async (c) =>
    jsonValueAnswer(c, await deps.usage.overview(), NO_STORE),
  );
}

/**
 * A report as the API description shows it. The intake (integrations/report-intake.ts) reads
 * entry by entry with the same entry schemas, dropping bad ones instead of refusing the report.
 */
const ReportSchema = z.object({
  minutes: z.optional(
    z.array(MinuteEntrySchema).check(z.maxLength(REPORT_LIMITS.maxMinuteEntries)),
  ),
  throttles: z.optional(
    z.array(ThrottleEntrySchema).check(z.maxLength(REPORT_LIMITS.maxThrottleEntries)),
  ),
});
const DemoBurstSchema = z.object({ status: z.nullable(z.int()) });
const byId = z.object({ id: IdParam });
const noSuchIntegration =
  'No such integration in this connection, another connection’s included (`/problems/not-found`).';

/** `POST /api/integrations/reports` in the console's API description (api-description/). */
export const integrationReportsApi: ApiModule = {
  base: INGEST_PATH,
  tag: {
    name: 'Integrations',
    description: 'Other software on the account reporting its traffic; the account-wide view.',
  },
  operations: [
    {
      method: 'post',
      path: '/',
      operationId: 'sendIntegrationReport',
      summary: 'An integration reports its traffic and its 429s',
      description:
        'From a server, with the integration’s reporting key; no session, cookie or X-CSRF header. Bad entries are dropped and counted, not refused.',
      access: { integrationKey: true },
      body: ReportSchema,
      responses: { 202: { description: 'Stored.', schema: IngestAnswerSchema } },
      problems: {
        400: 'Not a report: not a JSON object of `minutes` and `throttles` (`/problems/invalid-parameter`).',
        401: 'A missing, unknown or revoked key (`/problems/integration-unauthorized`), with `WWW-Authenticate: Bearer`.',
        413: 'More entries than one report may hold (`/problems/payload-too-large`).',
        415: 'Not `application/json` (`/problems/unsupported-media-type`).',
        429: 'Too many reports from this integration, or too many wrong keys from this client address (`/problems/rate-limited`, refused before the key or body is read), with `Retry-After`.',
      },
    },
  ],
};

/** The admin routes in the console's API description (api-description/). */
export const integrationAdminApi: ApiModule = {
  base: '/api/integrations',
  scope: 'connection',
  tag: integrationReportsApi.tag,
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'listIntegrations',
      summary: 'The integrations registered in this connection (never their keys)',
      access: { session: ADMIN_ONLY },
      responses: { 200: { description: 'The integrations.', schema: IntegrationListSchema } },
    },
    {
      method: 'post',
      path: '/',
      operationId: 'registerIntegration',
      summary: 'Register an integration of this connection and issue its reporting key',
      description:
        'The key is in this answer, and never again. What the integration reports counts in this connection’s account-wide view, for good; names are unique across connections.',
      access: { session: ADMIN_ONLY },
      body: RegisterIntegrationSchema,
      responses: { 201: { description: 'Registered, with its key.', schema: IssuedKeySchema } },
      problems: {
        400: 'An invalid name or owner (`/problems/invalid-parameter`).',
        409: 'The name is taken (`/problems/conflict`).',
      },
    },
    {
      method: 'post',
      path: '/:id/rotate',
      operationId: 'rotateIntegrationKey',
      summary: 'Issue a new key; the old one stops working',
      access: { session: ADMIN_ONLY },
      params: byId,
      responses: { 200: { description: 'The new key.', schema: IssuedKeySchema } },
      problems: { 404: noSuchIntegration },
    },
    {
      method: 'post',
      path: '/:id/revoke',
      operationId: 'revokeIntegration',
      summary: 'Revoke an integration’s key',
      access: { session: ADMIN_ONLY },
      params: byId,
      responses: { 200: { description: 'Revoked.', schema: IntegrationSchema } },
      problems: { 404: noSuchIntegration },
    },
    {
      method: 'delete',
      path: '/:id',
      operationId: 'removeIntegration',
      summary: 'Remove a revoked integration from the list',
      description:
        'What it reported stays, named as a removed integration, in the account-wide view and in Planning’s replays; its name can be registered again.',
      access: { session: ADMIN_ONLY },
      params: byId,
      responses: { 204: { description: 'Removed.' } },
      problems: {
        404: noSuchIntegration,
        409: 'The integration is active: revoke it first (`/problems/conflict`).',
      },
    },
    {
      method: 'post',
      path: '/:id/demo-burst',
      operationId: 'burstDemoIntegration',
      summary: 'Make a simulated integration burst until it draws a 429',
      access: { session: ADMIN_ONLY },
      demoOnly: true,
      params: byId,
      responses: {
        200: { description: 'The status the burst ended on.', schema: DemoBurstSchema },
      },
      problems: { 404: noSuchIntegration },
    },
  ],
};

/** The account-wide view in the console's API description (api-description/). */
export const accountUsageApi: ApiModule = {
  base: '/api/account-usage',
  scope: 'connection',
  tag: integrationReportsApi.tag,
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'getAccountUsage',
      summary:
        'This connection’s account-wide view: the traffic of every integration reporting to it against its limits',
      access: { session: ANY_ROLE },
      responses: { 200: { description: 'The overview.', schema: AccountOverviewSchema } },
    },
  ],
};
