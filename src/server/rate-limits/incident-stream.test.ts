// The live incident stream under pressure: replay bounded (a browser far behind, or ahead of a
// wiped or restored store, is told to start over), caps per session and per user as well as in
// all, and a stream that ends when its session signs out or expires.
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEnv } from '../http/app-env';
import { Governor } from '../governor/governor';
import { IncidentHub } from './incident-hub';
import { StreamRegistry } from './stream-registry';
import { createLogger } from '../observability/logger';
import { HttpProblem, problemResponse } from '../http/problem';
import { openDatabase, type SqlDatabase } from '../store/database';
import { SqlIncidentStore, type IncidentObservation } from './incident-store';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';
import { sampleObservation } from '../test-support/incident-observation';
import { rateLimitsRoutes } from './rate-limits-routes';
import { readEvents, type Event } from '../test-support/read-sse-events';

const T0 = Date.UTC(2030, 0, 6, 9, 0, 0);
let db: SqlDatabase | undefined;
let harness: BffHarness | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
  await harness?.close();
  harness = undefined;
});

function observation(n: number): IncidentObservation {
  const key = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return sampleObservation({ key, eventId: null, blockedUntil: T0 + 60_000, headers: {} }, T0 + n);
}

/** The stream route alone, with the session and user a header names (as requireSession sets). */
async function streamApp(
  incidents: number,
  options: { streams?: StreamRegistry; sessionAlive?: () => Promise<boolean> } = {},
) {
  db = await openDatabase();
  const store = new SqlIncidentStore(db, { connection: DEFAULT_CONNECTION });
  for (let n = 1; n <= incidents; n += 1) await store.record(observation(n));
  const hub = new IncidentHub();
  const app = new Hono<AppEnv>()
    .onError((error, c) =>
      error instanceof HttpProblem
        ? problemResponse(c, error.problem, error.headers)
        : c.text(String(error), 500),
    )
    .use(async (c, next) => {
      c.set('user', {
        username: c.req.header('x-user') ?? 'admin',
        role: 'support',
        roles: { default: 'support' },
      });
      c.set('sessionId', c.req.header('x-session') ?? 'session-1');
      await next();
    })
    .route(
      '/s',
      rateLimitsRoutes({
        governor: new Governor({ tier: 'production' }),
        store,
        hub,
        logger: createLogger('silent'),
        // The stream records no administrative change.
        recordChange: () => Promise.resolve(),
        now: () => T0,
        heartbeatMs: 20,
        ...options,
      }),
    );
  return { app, store, hub };
}

const untilReady = (events: Event[]) => events.some((e) => e.event === 'ready');

describe('the live stream', () => {
  it('replays at most 500 changes; a browser further behind is told to start over', async () => {
    const { app } = await streamApp(1_200);
    const response = await app.request('/s/stream', { headers: { 'Last-Event-ID': '0' } });
    const events = await readEvents(response, untilReady);
    expect(events.filter((e) => e.event === 'incident').length).toBeLessThanOrEqual(500);
    expect(JSON.parse(events.at(-1)!.data)).toEqual({ seq: 1_200, startOver: true });
  });

  it('replays a short gap in full, without starting over', async () => {
    const { app } = await streamApp(30);
    const events = await readEvents(
      await app.request('/s/stream', { headers: { 'Last-Event-ID': '10' } }),
      untilReady,
    );
    expect(events.filter((e) => e.event === 'incident')).toHaveLength(20);
    expect(JSON.parse(events.at(-1)!.data)).toEqual({ seq: 30 });
  });

  it('treats a Last-Event-ID ahead of the store as start over, and delivers what comes next', async () => {
    const { app, store, hub } = await streamApp(3);
    const response = await app.request('/s/stream', { headers: { 'Last-Event-ID': '9000' } });
    const events: Event[] = [];
    const reading = readEvents(response, (list) => {
      events.splice(0, events.length, ...list);
      return list.some((e) => e.event === 'incident');
    });
    await expect.poll(() => events.some((e) => e.event === 'ready')).toBe(true);
    expect(events[0]).toMatchObject({ event: 'ready', id: '3' });
    expect(JSON.parse(events[0]!.data)).toEqual({ seq: 3, startOver: true });
    hub.deliver(await store.record(observation(4)));
    const all = await reading;
    expect(all.find((e) => e.event === 'incident')?.id).toBe('4');
  });

  it('caps streams per session and per user, not only in all', async () => {
    const streams = new StreamRegistry({ total: 200, perSession: 2, perUser: 3 });
    const { app } = await streamApp(0, { streams });
    const open = (user: string, session: string) =>
      app.request('/s/stream', { headers: { 'x-user': user, 'x-session': session } });
    const held: Response[] = [];
    held.push(await open('support', 'a'), await open('support', 'a'));
    const third = await open('support', 'a');
    expect(third.status).toBe(503);
    // The console's own cap, not the platform: its own type, never upstream-unavailable.
    expect(await third.json()).toMatchObject({
      type: '/problems/too-many-streams',
      title: 'Too many live streams are open in this browser',
    });
    held.push(await open('support', 'b'));
    const fourth = await open('support', 'c');
    expect(fourth.status).toBe(503);
    expect(await fourth.json()).toMatchObject({
      title: 'Too many live streams are open for your user',
    });
    // Someone else is not locked out by one user's streams.
    held.push(await open('admin', 'd'));
    expect(held.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    for (const response of held) await response.body?.cancel();
  });

  it('ends a stream whose session expired, at the next heartbeat', async () => {
    let alive = true;
    const { app } = await streamApp(0, { sessionAlive: async () => alive });
    const response = await app.request('/s/stream');
    const reading = readEvents(response, (events) =>
      events.some((e) => e.event === 'session-ended'),
    );
    alive = false;
    const events = await reading;
    expect(events.at(-1)?.event).toBe('session-ended');
  });
});

describe('the live stream and signing out', () => {
  it('ends the session’s open streams when it signs out, not another session’s', async () => {
    harness = await startBffHarness();
    const mine = await harness.signIn('support');
    const theirs = await harness.signIn('support');
    const open = (cookie: string) =>
      harness!.app.request('/api/rate-limits/stream', { headers: { Cookie: cookie } });
    const myStream = await open(mine);
    const theirStream = await open(theirs);
    const myEvents = readEvents(myStream, (events) =>
      events.some((e) => e.event === 'session-ended'),
    );
    const theirEvents: Event[] = [];
    const theirReading = readEvents(theirStream, (events) => {
      theirEvents.splice(0, theirEvents.length, ...events);
      return events.some((e) => e.event === 'session-ended');
    });
    await expect.poll(() => theirEvents.some((e) => e.event === 'ready')).toBe(true);
    const signOut = await harness.app.request('/api/session', {
      method: 'DELETE',
      headers: { Cookie: mine, 'X-CSRF': '1' },
    });
    expect(signOut.status).toBe(204);
    expect((await myEvents).at(-1)?.event).toBe('session-ended');
    expect(theirEvents.some((e) => e.event === 'session-ended')).toBe(false);
    await harness.app.request('/api/session', {
      method: 'DELETE',
      headers: { Cookie: theirs, 'X-CSRF': '1' },
    });
    expect((await theirReading).at(-1)?.event).toBe('session-ended');
  });

  it('ends a session’s open streams at once when it is ended from the sessions page', async () => {
    harness = await startBffHarness();
    const laptop = await harness.signIn('support');
    const phone = await harness.signIn('support');
    const stream = await harness.app.request('/api/rate-limits/stream', {
      headers: { Cookie: phone },
    });
    const seen: Event[] = [];
    const reading = readEvents(stream, (events) => {
      seen.splice(0, seen.length, ...events);
      return events.some((e) => e.event === 'session-ended');
    });
    await expect.poll(() => seen.some((e) => e.event === 'ready')).toBe(true);
    const headers = { Cookie: laptop, 'X-CSRF': '1' };
    const list = (await (await harness.app.request('/api/sessions', { headers })).json()) as {
      sessions: Array<{ id: string; current: boolean }>;
    };
    const other = list.sessions.find((session) => !session.current);
    const ended = await harness.app.request(`/api/sessions/${other?.id}`, {
      method: 'DELETE',
      headers,
    });
    expect(ended.status).toBe(204);
    expect((await reading).at(-1)?.event).toBe('session-ended');
  });
});
