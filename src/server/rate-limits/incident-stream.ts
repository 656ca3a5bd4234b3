// The live stream of incident changes (GET /api/rate-limits/stream, Server-Sent Events): a
// reconnecting browser is replayed what it missed after its Last-Event-ID (or told to start over
// when it is too far behind), then gets every change as it is stored and every blocks-ended
// notice; heartbeats keep proxies from closing it and check the session, which ends the stream
// with `session-ended` when it expired or signed out.
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import {
  BLOCKS_ENDED_EVENT,
  INCIDENT_EVENT,
  type BlocksEnded,
  type Incident,
} from '../../shared/incident';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { AppEnv } from '../http/app-env';
import type { Logger } from '../observability/logger';
import { HttpProblem, invalidParameter } from '../http/problem';
import type { IncidentHub } from './incident-hub';
import type { IncidentStore } from './incident-store';
import { StreamRegistry } from './stream-registry';

export interface IncidentStreamDeps {
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

/** The stream's handler, for the route to mount. */
export function createIncidentStream(deps: IncidentStreamDeps) {
  const heartbeatMs = deps.heartbeatMs ?? 15_000;
  const maxStreams = deps.maxStreams ?? 200;
  const streams = deps.streams ?? new StreamRegistry({ total: maxStreams });

  async function writeIncident(stream: SSEStreamingApi, incident: Incident) {
    await stream.write(incidentEvent(incident));
  }

  return (c: Context<AppEnv>) => {
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
  };
}
