// Early warning and alerting API (docs/alerts.md): the forecast per limit and its thresholds,
// alert destinations, the one-click test, the delivery log and resend. Every signed-in role reads;
// only admins change anything, and nobody ever reads a destination's URL or secret back.
import { Hono } from 'hono';
import * as z from 'zod';
import {
  ALERT_LIMITS,
  ALERT_PROBLEM_TYPES,
  CreateDestinationSchema,
  DEFAULT_SIGNING_SCHEME,
  CreatedDestinationSchema,
  DeliveryListSchema,
  DeliverySchema,
  DestinationListSchema,
  DestinationSchema,
  ForecastResponseSchema,
  ThresholdSchema,
  UpdateDestinationSchema,
  type CreatedDestination,
  type Destination,
  type ForecastResponse,
} from '../../shared/alerts';
import { PROBLEM_TYPES } from '../../shared/problem';
import { RATE_LIMIT_PERIODS } from '../../shared/rate-limits';
import type { AppEnv } from '../http/app-env';
import { ADMIN_ONLY, ANY_ROLE, type ApiModule } from '../http/api-operation';
import type { Alerting } from './create-alerting';
import type { StoredDestination } from './alert-store';
import {
  checkDestinationUrl,
  DestinationRefusedError,
  type DestinationPolicy,
} from './destination-guard';
import { newSigningSecret } from './signature';
import { newStandardWebhooksSecret } from './standard-webhooks';
import { HttpProblem } from '../http/problem';
import { firstIssue, invalidBody, readJson } from '../http/json-body';
import { sortableId } from '../store/sortable-id';
import { fingerprint, type RecordChange } from '../http/admin-change';
import { NO_STORE } from '../http/no-store';
import { jsonValueAnswer } from '../http/gzip-answer';

export interface AlertsRoutesDeps {
  readonly alerting: Alerting;
  readonly policy: DestinationPolicy;
  readonly now: () => number;
  /** Ids of the governor's rules, for validating threshold keys. */
  readonly ruleIds: readonly string[];
  /** Records each change in the audit trail first: a change it cannot record is not made. */
  readonly recordChange: RecordChange;
}

/**
 * A destination as its audit entry shows it: the URL as the page hints it plus a fingerprint of
 * the whole (a Slack-compatible URL is a credential, and so may a webhook's path be), so a
 * re-pointed destination shows; the signing secret as a fingerprint.
 */
function auditedDestination(destination: StoredDestination) {
  return {
    name: destination.name,
    kind: destination.kind,
    url: urlHint(destination.url),
    urlFingerprint: fingerprint(destination.url),
    signing: destination.signing,
    secret: fingerprint(destination.secret),
    events: destination.events,
    enabled: destination.enabled,
    holdBackSeconds: destination.holdBackSeconds,
  };
}

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The URL as the browser may see it: origin, then only the last four characters of the rest. */
export function urlHint(url: string): string {
  const parsed = new URL(url);
  const rest = `${parsed.pathname}${parsed.search}`;
  if (rest.length <= 1) return parsed.origin;
  return `${parsed.origin}/…${rest.slice(-4)}`;
}

function publicDestination(destination: StoredDestination): Destination {
  return {
    id: destination.id,
    name: destination.name,
    kind: destination.kind,
    signing: destination.signing,
    urlHint: urlHint(destination.url),
    events: destination.events,
    enabled: destination.enabled,
    holdBackSeconds: destination.holdBackSeconds,
    createdAt: destination.createdAt,
  };
}

function notFound(what: string): HttpProblem {
  return new HttpProblem({
    type: PROBLEM_TYPES.notFound,
    title: `No such ${what}`,
    status: 404,
    detail: `The ${what} does not exist (any more). Reload the page.`,
  });
}

/** The alerts routes, mounted at /api/alerts. */
export function alertsRoutes(deps: AlertsRoutesDeps) {
  const { alerting, policy, now, recordChange } = deps;
  const { store, service } = alerting;
  const limitKeys = new Set(
    deps.ruleIds.flatMap((rule) => RATE_LIMIT_PERIODS.map((period) => `${rule}:${period}`)),
  );
  const destinationOf = async (id: string) => {
    const destination = ID.test(id) ? await store.getDestination(id) : undefined;
    if (!destination) throw notFound('destination');
    return destination;
  };

  return new Hono<AppEnv>()
    .get('/forecast', async (c) => {
      const body: ForecastResponse = {
        now: new Date(now()).toISOString(),
        limits: await alerting.forecast(),
      };
      // No secret and no echo of the request in the forecast: compressed (gzip-answer.ts).
      return jsonValueAnswer(c, body, NO_STORE);
    })
    .put('/thresholds/:ruleId/:period', async (c) => {
      const key = `${c.req.param('ruleId')}:${c.req.param('period')}`;
      if (!limitKeys.has(key)) throw notFound('limit');
      const parsed = ThresholdSchema.safeParse(await readJson(c.req.raw));
      if (!parsed.success) {
        throw invalidBody(
          'percent',
          `must be a whole number from ${ALERT_LIMITS.thresholdPercent.min} to ${ALERT_LIMITS.thresholdPercent.max}`,
        );
      }
      await recordChange(c, {
        action: 'threshold.changed',
        target: key,
        before: { percent: (await store.thresholds()).get(key) ?? null },
        after: { percent: parsed.data.percent },
      });
      await store.setThreshold(key, parsed.data.percent, now());
      return c.body(null, 204);
    })
    .get('/destinations', async (c) =>
      c.json({ items: (await store.listDestinations()).map(publicDestination) }, 200, NO_STORE),
    )
    .post('/destinations', async (c) => {
      const parsed = CreateDestinationSchema.safeParse(await readJson(c.req.raw));
      if (!parsed.success) throw firstIssue(parsed.error);
      const input = parsed.data;
      if (input.kind === 'slack' && input.signing !== undefined) {
        throw invalidBody(
          'signing',
          'applies to generic webhooks only: a Slack-compatible URL is its own credential',
        );
      }
      let url: URL;
      try {
        url = checkDestinationUrl(input.url, policy);
      } catch (error) {
        if (!(error instanceof DestinationRefusedError)) throw error;
        throw new HttpProblem({
          type: ALERT_PROBLEM_TYPES.destinationRefused,
          title: 'The console will not send alerts to this URL',
          status: 400,
          detail: `url: ${error.message}`,
          parameter: 'url',
        });
      }
      const signing = input.kind === 'webhook' ? (input.signing ?? DEFAULT_SIGNING_SCHEME) : null;
      // Each scheme's own secret format: Standard Webhooks libraries base64-decode the key.
      const secret =
        signing === 'standard-webhooks'
          ? newStandardWebhooksSecret()
          : signing === 'console-signature'
            ? newSigningSecret()
            : null;
      const destination: StoredDestination = {
        id: sortableId(now()),
        name: input.name,
        kind: input.kind,
        url: url.toString(),
        secret,
        signing,
        events: [...new Set(input.events)],
        enabled: true,
        holdBackSeconds: input.holdBackSeconds ?? ALERT_LIMITS.holdBackSeconds.default,
        createdAt: new Date(now()).toISOString(),
      };
      await recordChange(c, {
        action: 'alert-destination.created',
        target: destination.id,
        before: null,
        after: auditedDestination(destination),
      });
      await store.createDestination(destination);
      const body: CreatedDestination = { destination: publicDestination(destination), secret };
      return c.json(body, 201, NO_STORE);
    })
    .patch('/destinations/:id', async (c) => {
      const existing = await destinationOf(c.req.param('id'));
      const parsed = UpdateDestinationSchema.safeParse(await readJson(c.req.raw));
      if (!parsed.success) throw firstIssue(parsed.error);
      const change = parsed.data;
      const fields = {
        ...(change.name === undefined ? {} : { name: change.name }),
        ...(change.events === undefined ? {} : { events: [...new Set(change.events)] }),
        ...(change.enabled === undefined ? {} : { enabled: change.enabled }),
        ...(change.holdBackSeconds === undefined
          ? {}
          : { holdBackSeconds: change.holdBackSeconds }),
      };
      await recordChange(c, {
        action: 'alert-destination.changed',
        target: existing.id,
        before: auditedDestination(existing),
        after: auditedDestination({ ...existing, ...fields }),
      });
      const updated = await store.updateDestination(existing.id, fields, now());
      if (!updated) throw notFound('destination');
      return c.json(publicDestination(updated), 200, NO_STORE);
    })
    .delete('/destinations/:id', async (c) => {
      const existing = await destinationOf(c.req.param('id'));
      await recordChange(c, {
        action: 'alert-destination.deleted',
        target: existing.id,
        before: auditedDestination(existing),
        after: null,
      });
      await store.deleteDestination(existing.id);
      return c.body(null, 204);
    })
    .post('/destinations/:id/test', async (c) => {
      const destination = await destinationOf(c.req.param('id'));
      await recordChange(c, {
        action: 'alert-destination.test-sent',
        target: destination.id,
        before: null,
        after: { name: destination.name },
      });
      const delivery = await service.sendTest(destination);
      if (!delivery) throw notFound('delivery');
      return c.json(delivery, 200, NO_STORE);
    })
    .get('/destinations/:id/deliveries', async (c) => {
      const destination = await destinationOf(c.req.param('id'));
      const items = await store.listDeliveries(destination.id, ALERT_LIMITS.deliveryPageSize);
      return c.json({ items }, 200, NO_STORE);
    })
    .post('/deliveries/:id/resend', async (c) => {
      const id = c.req.param('id');
      const existing = ID.test(id) ? await store.getDelivery(id) : undefined;
      if (!existing) throw notFound('delivery');
      const delivery = await store.resend(id, now());
      if (!delivery) {
        throw new HttpProblem({
          type: PROBLEM_TYPES.conflict,
          title: 'This alert is still on its way',
          status: 409,
          detail: 'Only a delivered or dead-lettered alert can be sent again.',
        });
      }
      await alerting.dispatcher.runDue();
      return c.json((await store.getDelivery(id)) ?? delivery, 200, NO_STORE);
    });
}

const byId = z.object({ id: z.string().regex(ID) });
const noSuch = (what: string) => `No such ${what} (\`/problems/not-found\`).`;
const invalid = 'The body is not valid; the field is named (`/problems/invalid-parameter`).';

/** These routes in the console's API description (api-description/). */
export const alertsApi: ApiModule = {
  base: '/api/alerts',
  tag: {
    name: 'Alerts',
    description: 'Early warning: forecasts, thresholds, destinations and deliveries.',
  },
  operations: [
    {
      method: 'get',
      path: '/forecast',
      operationId: 'getAlertForecast',
      summary: 'The forecast per limit and its thresholds',
      access: { session: ANY_ROLE },
      responses: { 200: { description: 'The forecast.', schema: ForecastResponseSchema } },
    },
    {
      method: 'put',
      path: '/thresholds/:ruleId/:period',
      operationId: 'setAlertThreshold',
      summary: 'Set the warning threshold of one limit',
      access: { session: ADMIN_ONLY },
      params: z.object({ ruleId: z.string(), period: z.enum(RATE_LIMIT_PERIODS) }),
      body: ThresholdSchema,
      responses: { 204: { description: 'Set.' } },
      problems: { 400: invalid, 404: noSuch('limit') },
    },
    {
      method: 'get',
      path: '/destinations',
      operationId: 'listAlertDestinations',
      summary: 'The alert destinations (never their URL or secret)',
      access: { session: ANY_ROLE },
      responses: { 200: { description: 'The destinations.', schema: DestinationListSchema } },
    },
    {
      method: 'post',
      path: '/destinations',
      operationId: 'createAlertDestination',
      summary: 'Add an alert destination',
      description: 'A webhook’s signing secret is in this answer, and never again.',
      access: { session: ADMIN_ONLY },
      body: CreateDestinationSchema,
      responses: {
        201: { description: 'Added, with its secret.', schema: CreatedDestinationSchema },
      },
      problems: {
        400: `${invalid} A URL the console may not call is \`/problems/alert-destination-refused\`.`,
      },
    },
    {
      method: 'patch',
      path: '/destinations/:id',
      operationId: 'updateAlertDestination',
      summary: 'Change an alert destination',
      access: { session: ADMIN_ONLY },
      params: byId,
      body: UpdateDestinationSchema,
      responses: { 200: { description: 'Changed.', schema: DestinationSchema } },
      problems: { 400: invalid, 404: noSuch('destination') },
    },
    {
      method: 'delete',
      path: '/destinations/:id',
      operationId: 'deleteAlertDestination',
      summary: 'Remove an alert destination',
      access: { session: ADMIN_ONLY },
      params: byId,
      responses: { 204: { description: 'Removed.' } },
      problems: { 404: noSuch('destination') },
    },
    {
      method: 'post',
      path: '/destinations/:id/test',
      operationId: 'testAlertDestination',
      summary: 'Send a test alert now',
      access: { session: ADMIN_ONLY },
      params: byId,
      responses: { 200: { description: 'The test delivery.', schema: DeliverySchema } },
      problems: { 404: noSuch('destination') },
    },
    {
      method: 'get',
      path: '/destinations/:id/deliveries',
      operationId: 'listAlertDeliveries',
      summary: 'The latest deliveries to one destination',
      access: { session: ANY_ROLE },
      params: byId,
      responses: { 200: { description: 'The deliveries.', schema: DeliveryListSchema } },
      problems: { 404: noSuch('destination') },
    },
    {
      method: 'post',
      path: '/deliveries/:id/resend',
      operationId: 'resendAlertDelivery',
      summary: 'Send a delivered or dead-lettered alert again',
      access: { session: ADMIN_ONLY },
      params: byId,
      responses: { 200: { description: 'The delivery.', schema: DeliverySchema } },
      problems: {
        404: noSuch('delivery'),
        409: 'The alert is still on its way (`/problems/conflict`).',
      },
    },
  ],
};
