// The rate-limit panel's API (docs/product.md §7): the limits table, how much of each limit this
// console uses right now, the 429 incident history and its export as a file, and the live
// Server-Sent Events stream of incident changes, mounted here and run by incident-stream.ts.
import { Hono } from 'hono';
import type { RecordChange } from '../http/admin-change';
import * as z from 'zod';
import {
  BLOCKS_ENDED_EVENT,
  INCIDENT_EVENT,
  INCIDENT_EXPORT_FORMATS,
  INCIDENT_QUERY_LIMITS,
  IncidentExportSchema,
  IncidentPageSchema,
  RulesResponseSchema,
  UsageSchema,
  type Usage,
} from '../../shared/incident';
import { ADMIN_ONLY, ANY_ROLE, type ApiModule } from '../http/api-operation';
import { blockOfLimit } from '../../shared/limit-state';
import { RATE_LIMIT_PERIODS } from '../../shared/rate-limits';
import type { Governor } from '../governor/governor';
import type { AppEnv } from '../http/app-env';
import { createIncidentStream, type IncidentStreamDeps } from './incident-stream';
import { listFilter, listQuerySchema, validListQuery } from '../http/list-query';
import { invalidParameter } from '../http/problem';
import { incidentCsv, incidentExport } from './incident-export';
import { InvalidCursorError, type IncidentQuery } from './incident-store';
import { NO_STORE } from '../http/no-store';
import { jsonValueAnswer } from '../http/gzip-answer';

export interface RateLimitsRoutesDeps extends IncidentStreamDeps {
  /** Records the reset of learned limits in the audit trail, before it is made. */
  readonly recordChange: RecordChange;
  readonly governor: Governor;
}

/** The history's filters besides the time range: by period and by rule. */
function incidentFilters(knownRules: ReadonlySet<string>) {
  return {
    period: listFilter(z.enum(RATE_LIMIT_PERIODS, { error: 'must be MINUTE or HOUR' })).describe(
      'MINUTE or HOUR.',
    ),
    rule: listFilter(
      z
        .string()
        .refine(
          (rule) => rule === 'unmatched' || knownRules.has(rule),
          'must be the id of a rule of GET /api/rate-limits/rules, or "unmatched"',
        ),
    ).describe('A rule id of GET /api/rate-limits/rules, or `unmatched`.'),
  };
}

/** The history's query: time range and paging, filtered by period and by rule. */
function incidentQuerySchema(knownRules: ReadonlySet<string>) {
  return listQuerySchema(incidentFilters(knownRules), INCIDENT_QUERY_LIMITS);
}

/** The export's query: the history's filters, and `format` (CSV unless JSON is asked for). */
function exportQuerySchema(knownRules: ReadonlySet<string>) {
  return listQuerySchema(
    {
      ...incidentFilters(knownRules),
      format: listFilter(
        z.enum(INCIDENT_EXPORT_FORMATS, { error: 'must be csv or json' }),
      ).describe('csv (the default) or json.'),
    },
    INCIDENT_QUERY_LIMITS,
  );
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The rate-limit routes, mounted at /api/rate-limits. */
export function rateLimitsRoutes(deps: RateLimitsRoutesDeps) {
  const knownRules = new Set(deps.governor.rules().map((rule) => rule.id));
  const incidentQuery = incidentQuerySchema(knownRules);
  const exportQuery = exportQuerySchema(knownRules);
  const incidentStream = createIncidentStream(deps);

  return (
    new Hono<AppEnv>()
      // The rules and the usage hold no secret and echo nothing the request sent: compressed.
      .get('/rules', (c) =>
        jsonValueAnswer(
          c,
          {
            accountTier: deps.governor.tier,
            policy: deps.governor.policy,
            rules: deps.governor.rules(),
          },
          NO_STORE,
        ),
      )
      .get('/usage', async (c) => {
        const usage = await deps.governor.usage();
        const reportedUsage = await deps.governor.reportedUsage();
        const timeline = deps.governor.timeline.snapshot();
        // One description of the running blocks: each limit's state is read from it, as the
        // forecast's and the account-wide view's are (shared/limit-state.ts).
        const blocks = deps.governor.blockStates();
        const body: Usage = {
          now: new Date(deps.now()).toISOString(),
          accountTier: deps.governor.tier,
          rules: usage.map((limit) => {
            const block = blockOfLimit(limit, blocks);
            return {
              ...limit,
              remaining: Math.max(0, limit.limit - limit.used),
              resetsAt: iso(limit.resetsAt),
              blockedUntil: block?.until ?? null,
              blockedBy: block?.scope ?? null,
              incidentKey: block?.incidentKey ?? null,
              block,
            };
          }),
          blocks,
          timeline: { ...timeline, start: new Date(timeline.start).toISOString() },
          reported: [...reportedUsage].map(([state, used]) => ({
            endpoint: state.endpoint,
            operation: state.operation,
            period: state.period,
            reported: state.reported,
            configured: state.configured,
            kept: state.kept,
            firstReportedAt: new Date(state.firstReportedAt).toISOString(),
            lastReportedAt: new Date(state.lastReportedAt).toISOString(),
            incidentKey: state.incidentKey,
            used,
          })),
        };
        return jsonValueAnswer(c, body, NO_STORE);
      })
      // Admins only (app.ts): back to the configured limits alone.
      .delete('/reported-limits', async (c) => {
        const learned = [...(await deps.governor.reportedUsage()).keys()].map((state) => ({
          endpoint: state.endpoint,
          period: state.period,
          reported: state.reported,
        }));
        await deps.recordChange(c, {
          action: 'learned-limits.reset',
          target: null,
          before: { learned },
          after: { learned: [] },
        });
        deps.governor.forgetReportedLimits();
        return c.body(null, 204);
      })
      .get('/incidents', validListQuery(incidentQuery), async (c) => {
        const query: IncidentQuery = c.req.valid('query');
        try {
          return c.json(await deps.store.list(query), 200, NO_STORE);
        } catch (error) {
          if (error instanceof InvalidCursorError) throw invalidParameter('cursor', error.message);
          throw error;
        }
      })
      // The list as a file: same filters, same readers, every page of it (incident-export.ts).
      .get('/incidents/export', validListQuery(exportQuery), async (c) => {
        const { limit: _pageSize, cursor, format = 'csv', ...filters } = c.req.valid('query');
        for (const [name, given] of [
          ['cursor', cursor],
          ['limit', c.req.query('limit')],
        ] as const) {
          if (given !== undefined) {
            throw invalidParameter(
              name,
              'an export holds every incident the filters match; leave paging out',
            );
          }
        }
        const file = await incidentExport(deps.store, filters, deps.now());
        const name = `incidents-${file.generatedAt.slice(0, 19).replaceAll(':', '')}Z.${format}`;
        const headers = { ...NO_STORE, 'Content-Disposition': `attachment; filename="${name}"` };
        return format === 'json'
          ? c.json(file, 200, headers)
          : c.body(incidentCsv(file), 200, {
              ...headers,
              'Content-Type': 'text/csv; charset=utf-8',
            });
      })
      // The live stream: replay by Last-Event-ID, heartbeats, session end (incident-stream.ts).
      .get('/stream', incidentStream)
  );
}

/** These routes in the console's API description (api-description/). */
export const rateLimitsApi: ApiModule = {
  base: '/api/rate-limits',
  scope: 'connection',
  tag: {
    name: 'Rate limits',
    description: 'The limits the governor keeps, the console’s use of them, and the 429 history.',
  },
  operations: [
    {
      method: 'get',
      path: '/rules',
      operationId: 'getRateLimitRules',
      summary: 'The limits the governor keeps',
      access: { session: ANY_ROLE },
      responses: {
        200: { description: 'The tier, policy and rules.', schema: RulesResponseSchema },
      },
    },
    {
      method: 'get',
      path: '/usage',
      operationId: 'getRateLimitUsage',
      summary: 'How much of each limit this console uses now',
      access: { session: ANY_ROLE },
      responses: { 200: { description: 'Use, blocks, timeline.', schema: UsageSchema } },
    },
    {
      method: 'delete',
      path: '/reported-limits',
      operationId: 'forgetReportedLimits',
      summary: 'Forget the limits the platform reported; keep the configured ones alone',
      access: { session: ADMIN_ONLY },
      responses: { 204: { description: 'Forgotten.' } },
    },
    {
      method: 'get',
      path: '/incidents',
      operationId: 'listIncidents',
      summary: 'The 429 incident history, newest first',
      access: { session: ANY_ROLE },
      query: incidentQuerySchema(new Set()),
      responses: { 200: { description: 'One page of incidents.', schema: IncidentPageSchema } },
      problems: { 400: 'An unknown or invalid query parameter (`/problems/invalid-parameter`).' },
    },
    {
      method: 'get',
      path: '/incidents/export',
      operationId: 'exportIncidents',
      summary: 'The 429 incident history as a CSV or JSON file, under the list’s filters',
      description:
        'Every incident the filters match, newest first (not one page): the event id, the rule and its limit, the figures, times in UTC; never the headers as received. At most 10,000; a longer history is cut to the newest and says so (`complete: false`, a last CSV line).',
      access: { session: ANY_ROLE },
      query: exportQuerySchema(new Set()),
      responses: {
        200: {
          description: 'The file, named in `Content-Disposition`.',
          mediaType: 'text/csv',
          alsoAs: [{ mediaType: 'application/json', schema: IncidentExportSchema }],
        },
      },
      problems: {
        400: 'An unknown or invalid query parameter, or a paging one (`/problems/invalid-parameter`).',
      },
    },
    {
      method: 'get',
      path: '/stream',
      operationId: 'streamIncidents',
      summary: 'Live incident changes (Server-Sent Events)',
      description: `Events \`${INCIDENT_EVENT}\` (an incident, with its stream id), \`${BLOCKS_ENDED_EVENT}\`, \`ready\`, \`heartbeat\` and \`session-ended\`. \`Last-Event-ID\` (or \`?lastEventId=\`) replays what a reconnecting browser missed. Needs no X-CSRF header: EventSource cannot send one.`,
      access: { session: ANY_ROLE },
      csrfExempt: true,
      query: z.object({
        lastEventId: z.optional(
          z
            .string()
            .regex(/^\d{1,15}$/)
            .describe('Replay after this id.'),
        ),
      }),
      responses: { 200: { description: 'The event stream.', mediaType: 'text/event-stream' } },
      problems: {
        400: '`Last-Event-ID` is not a stream id (`/problems/invalid-parameter`).',
        503: 'Too many live streams are open (`/problems/too-many-streams`), with `Retry-After`.',
      },
    },
  ],
};
