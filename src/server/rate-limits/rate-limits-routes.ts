// The rate-limit panel's API (docs/product.md §7): the limits table, how much of each limit this
// console uses right now, the 429 incident history, and a live Server-Sent Events stream of
// incident changes with replay of whatever a reconnecting browser missed.
import { Hono } from 'hono';
import * as z from 'zod';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import {
  BLOCKS_ENDED_EVENT,
  INCIDENT_EVENT,
  INCIDENT_QUERY_LIMITS,
  IncidentPageSchema,
  RulesResponseSchema,
  UsageSchema,
  type BlocksEnded,
  type Incident,
  type Usage,
} from '../../shared/incident';
import { ADMIN_ONLY, ANY_ROLE, type ApiModule } from '../http/api-operation';
import { PROBLEM_TYPES } from '../../shared/problem';
import { RATE_LIMIT_PERIODS } from '../../shared/rate-limits';
import type { Governor } from '../governor/governor';
import type { AppEnv } from '../app-env';
import type { IncidentHub } from './incident-hub';
import { StreamRegistry } from './stream-registry';
import type { Logger } from '../logger';
import { listFilter, listQuerySchema, validListQuery } from '../http/list-query';
import { HttpProblem, invalidParameter } from '../problem';
import { InvalidCursorError, type IncidentQuery, type IncidentStore } from './incident-store';

export interface RateLimitsRoutesDeps {
  readonly governor: Governor;
  readonly store: IncidentStore;
  readonly hub: IncidentHub;
  readonly logger: Logger;
  readonly now: () => number;
  /** Interval of the stream's heartbeat event (default 15 s). */
  readonly heartbeatMs?: number;
  /** Most streams open at once in this process (default 200); more get a 503. */
  readonly maxStreams?: number;
  /** Open streams by session and user, with their caps; one is made when not given. */
  readonly streams?: StreamRegistry;
  /**
   * Whether the session is still live, asked at every heartbeat without extending it: a stream
   * of a session that expired or signed out on another replica ends within one heartbeat.
   */
  readonly sessionAlive?: (sessionId: string) => Promise<boolean>;
}

/** Replay is read and written this many changes at a time, each page awaited (backpressure). */
const REPLAY_PAGE = 100;
/**
 * Most changes replayed to one stream; a browser further behind (or whose Last-Event-ID is ahead
 * of the store, after a wipe or a restore) is told to start over: it reloads the history.
 */
const REPLAY_MAX = 500;
/** Changes a slow stream may fall behind by before it is closed (it reconnects and replays). */
const MAX_QUEUED = 1_000;
/** Reconnection delay the browser is told to use. */
const RECONNECT_MS = 2_000;

/** The history's query: time range and paging, filtered by period and by rule. */
function incidentQuerySchema(knownRules: ReadonlySet<string>) {
  return listQuerySchema(
    {
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
    },
    INCIDENT_QUERY_LIMITS,
  );
}

/** The stream id to replay after: `Last-Event-ID` (EventSource's reconnect) or `?lastEventId=`. */
function replayFrom(header: string | undefined, query: string | undefined): number | undefined {
  const value = header ?? query;
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value)) throw invalidParameter('Last-Event-ID', 'must be a stream id');
  return Number(value);
}

/**
 * One serialisation per change, however many streams carry it: the whole SSE event, encoded once
 * (an incident flood reaches every open stream, so per-stream work is what the loop pays for),
 * in the field order of Hono's writeSSE.
 */
const encodedEvents = new WeakMap<Incident, Uint8Array>();
const encoder = new TextEncoder();
function incidentEvent(incident: Incident): Uint8Array {
  let bytes = encodedEvents.get(incident);
  if (bytes === undefined) {
    bytes = encoder.encode(
      `event: ${INCIDENT_EVENT}\ndata: ${JSON.stringify(incident)}\nid: ${incident.seq}\n\n`,
    );
    encodedEvents.set(incident, bytes);
  }
  return bytes;
}

const STREAM_REFUSALS = {
  total: 'Too many live streams are open on this server',
  user: 'Too many live streams are open for your user',
  session: 'Too many live streams are open in this browser',
} as const;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The rate-limit routes, mounted at /api/rate-limits. */
export function rateLimitsRoutes(deps: RateLimitsRoutesDeps) {
  const incidentQuery = incidentQuerySchema(new Set(deps.governor.rules().map((rule) => rule.id)));
  const heartbeatMs = deps.heartbeatMs ?? 15_000;
  const maxStreams = deps.maxStreams ?? 200;
  const noStore = { 'Cache-Control': 'private, no-store' };

  async function writeIncident(stream: SSEStreamingApi, incident: Incident) {
    await stream.write(incidentEvent(incident));
  }
  const streams = deps.streams ?? new StreamRegistry({ total: maxStreams });

  return (
    new Hono<AppEnv>()
      .get('/rules', (c) =>
        c.json(
          {
            accountTier: deps.governor.tier,
            policy: deps.governor.policy,
            rules: deps.governor.rules(),
          },
          200,
          noStore,
        ),
      )
      .get('/usage', async (c) => {
        const usage = await deps.governor.usage();
        const reportedUsage = await deps.governor.reportedUsage();
        const timeline = deps.governor.timeline.snapshot();
        const body: Usage = {
          now: new Date(deps.now()).toISOString(),
          accountTier: deps.governor.tier,
          rules: usage.map((limit) => ({
            ...limit,
            remaining: Math.max(0, limit.limit - limit.used),
            resetsAt: iso(limit.resetsAt),
            blockedUntil: iso(limit.blockedUntil),
          })),
          blocks: deps.governor.activeBlocks().map((block) => ({
            scope: block.scope,
            ruleId: block.ruleId,
            until: new Date(block.until).toISOString(),
            incidentKey: block.incidentKey,
            ...(block.endpoint === undefined ? {} : { endpoint: block.endpoint }),
          })),
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
        return c.json(body, 200, noStore);
      })
      // Admins only (app.ts): back to the configured limits alone.
      .delete('/reported-limits', (c) => {
        deps.governor.forgetReportedLimits();
        return c.body(null, 204);
      })
      .get('/incidents', validListQuery(incidentQuery), async (c) => {
        const query: IncidentQuery = c.req.valid('query');
        try {
          return c.json(await deps.store.list(query), 200, noStore);
        } catch (error) {
          if (error instanceof InvalidCursorError) throw invalidParameter('cursor', error.message);
          throw error;
        }
      })
      .get('/stream', (c) => {
        const after = replayFrom(c.req.header('last-event-id'), c.req.query('lastEventId'));
        const owner = {
          sessionId: c.get('sessionId') ?? '',
          username: c.get('user')?.username ?? '',
        };
        // Ended by sign-out (or expiry seen at a heartbeat) through the registry.
        let endStream: () => void = () => {};
        const admitted = streams.open(owner, () => endStream());
        if ('refused' in admitted) {
          throw new HttpProblem(
            {
              type: PROBLEM_TYPES.tooManyStreams,
              title: STREAM_REFUSALS[admitted.refused],
              status: 503,
              detail: 'Close some console tabs, or wait; the page retries by itself.',
              retryAfterSeconds: 10,
            },
            { 'Retry-After': '10' },
          );
        }
        c.header('X-Accel-Buffering', 'no');
        return streamSSE(c, async (stream) => {
          // Subscribe before reading the store, so nothing published in between is lost; what was
          // both replayed and queued is sent once (ids only grow).
          const queue: Incident[] = [];
          // Notices carry no stream id: they are about now, a reconnect has nothing to replay.
          const notices: BlocksEnded[] = [];
          let wake: (() => void) | undefined;
          let done = false;
          let sessionEnded = false;
          const stop = () => {
            done = true;
            wake?.();
          };
          endStream = () => {
            sessionEnded = true;
            stop();
          };
          const unsubscribe = deps.hub.subscribe((incident) => {
            if (queue.length >= MAX_QUEUED) done = true;
            else queue.push(incident);
            wake?.();
          }, stop);
          const stopNotices = deps.hub.onBlocksEnded((notice) => {
            if (notices.length < MAX_QUEUED) notices.push(notice);
            wake?.();
          });
          stream.onAbort(stop);
          const heartbeat = setInterval(() => {
            void (async () => {
              if (deps.sessionAlive && owner.sessionId) {
                const alive = await deps.sessionAlive(owner.sessionId).catch(() => true);
                if (!alive) {
                  endStream();
                  return;
                }
              }
              await stream.writeSSE({
                event: 'heartbeat',
                data: JSON.stringify({ at: new Date(deps.now()).toISOString() }),
              });
            })();
          }, heartbeatMs);
          try {
            const latest = await deps.store.latestSeq();
            let lastSent = after ?? latest;
            // Ahead of the store (wiped or restored), or too far behind: start over from now.
            let startOver = after !== undefined && (after > latest || latest - after > REPLAY_MAX);
            if (startOver) lastSent = latest;
            else if (after !== undefined) {
              // Replay what the browser missed, in order, one awaited page at a time.
              let replayed = 0;
              while (!done && replayed < REPLAY_MAX) {
                const page = await deps.store.changesSince(lastSent, REPLAY_PAGE);
                for (const incident of page) await writeIncident(stream, incident);
                lastSent = page.at(-1)?.seq ?? lastSent;
                replayed += page.length;
                if (page.length < REPLAY_PAGE) break;
              }
              if (replayed >= REPLAY_MAX && lastSent < (await deps.store.latestSeq())) {
                startOver = true;
                lastSent = await deps.store.latestSeq();
              }
            }
            // `ready` carries the newest id, so a later automatic reconnect replays from here;
            // `startOver` tells the page to reload the history instead of trusting its copy.
            await stream.writeSSE({
              event: 'ready',
              id: String(lastSent),
              data: JSON.stringify({ seq: lastSent, ...(startOver ? { startOver: true } : {}) }),
              retry: RECONNECT_MS,
            });
            while (!done && !stream.aborted) {
              const notice = notices.shift();
              if (notice) {
                await stream.writeSSE({ event: BLOCKS_ENDED_EVENT, data: JSON.stringify(notice) });
                continue;
              }
              const next = queue.shift();
              if (next) {
                if (next.seq > lastSent) {
                  await writeIncident(stream, next);
                  lastSent = next.seq;
                }
                continue;
              }
              await new Promise<void>((resolve) => {
                wake = resolve;
              });
              wake = undefined;
            }
            if (sessionEnded && !stream.aborted) {
              // The page stops reconnecting and shows the sign-in page.
              await stream.writeSSE({ event: 'session-ended', data: '{}' });
            }
          } catch (error) {
            deps.logger.warn({ err: error }, 'incident stream ended by an error');
          } finally {
            clearInterval(heartbeat);
            unsubscribe();
            stopNotices();
            admitted.remove();
          }
        });
      })
  );
}

/** These routes in the console's API description (api-description/). */
export const rateLimitsApi: ApiModule = {
  base: '/api/rate-limits',
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
