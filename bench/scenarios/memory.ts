// Scenario 8, memory, at npm start's settings (its Node flags, the heap limit among them): the
// console's resident memory over 100,000 proxied requests (cache off, so requests go through the
// token manager, the upstream client and validation; identical ones in flight share one upstream
// call, as in production), sampled every 10,000: one bar, at most 256 MB at the end (the product's
// figure) and flat, the spread over the second half at most 10 % of the final RSS. Also the RSS
// with 10,000 incidents in its store, all read back through the panel's API and the stream's
// replay.
import { DEFAULT_CONNECTION } from '../../src/shared/connections';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/server/store/database';
import { SqlIncidentStore } from '../../src/server/rate-limits/incident-store';
import { startConsole, startMockUpstream } from '../lib/console';
import { runLoad } from '../lib/load';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const PORTS = { mock: 8776, console: 8777 };
const STEPS = 10;

export async function memoryScenario(ctx: BenchContext): Promise<Figure[]> {
  const mock = await startMockUpstream(PORTS.mock, { MOCK_RATE_LIMITS: 'off' });
  try {
    const requests = await rssOverRequests(ctx, mock.url);
    const incidents = ctx.smoke ? 500 : 10_000;
    const withIncidents = await rssWithIncidents(incidents, mock.url);
    ctx.log(`  memory: ${incidents} incidents, RSS ${withIncidents.toFixed(0)} MB`);
    return [
      ...requests,
      figure(
        'Memory',
        `console RSS with ${incidents.toLocaleString('en-US')} incidents, all read back`,
        withIncidents,
        'MB',
        { op: '<=', value: 150 },
      ),
    ];
  } finally {
    await mock.stop();
  }
}

/** RSS at start and every tenth of 100,000 uncached requests; the bars on the end and the spread. */
async function rssOverRequests(ctx: BenchContext, mockUrl: string): Promise<Figure[]> {
  const app = await startConsole(PORTS.console, mockUrl, {
    EVENT_TYPES_CACHE_SECONDS: '0',
    ACCOUNT_MINUTE_LIMIT: '100000000',
    ACCOUNT_HOUR_LIMIT: '1000000000',
  });
  try {
    const total = ctx.smoke ? 2_000 : 100_000;
    const atStart = app.rssMb();
    const samples: number[] = [];
    for (let step = 0; step < STEPS; step += 1) {
      const load = await runLoad({
        url: `${app.url}/api/event-types`,
        connections: 32,
        amount: total / STEPS,
        headers: app.apiHeaders,
      });
      if (load.non2xx || load.errors) {
        throw new Error(`memory run: ${load.non2xx} non-2xx, ${load.errors} errors`);
      }
      samples.push(app.rssMb());
    }
    const final = samples.at(-1) ?? 0;
    const secondHalf = samples.slice(STEPS / 2);
    const spread = Math.max(...secondHalf) - Math.min(...secondHalf);
    ctx.log(
      `  memory: RSS at start ${atStart.toFixed(0)} MB, then every ${total / STEPS} requests: ${samples.map((mb) => mb.toFixed(0)).join(' ')} MB`,
    );
    const amount = total.toLocaleString('en-US');
    return [
      figure('Memory', 'console RSS at start (signed in, idle)', atStart, 'MB'),
      figure('Memory', `console RSS after ${amount} proxied requests`, final, 'MB', {
        op: '<=',
        value: 256,
      }),
      figure('Memory', 'RSS spread over the second half of that run (MB)', spread, 'MB'),
      figure(
        'Memory',
        'RSS spread over the second half ÷ the final RSS (flat)',
        (spread / final) * 100,
        '%',
        { op: '<=', value: 10 },
      ),
    ];
  } finally {
    await app.stop();
  }
}

/**
 * Fills a DATA_DIR with `count` incidents (as a long-running console would have recorded them),
 * starts a console on it, reads every incident through the API and the stream's replay, and
 * returns the console's RSS.
 */
async function rssWithIncidents(count: number, mockUrl: string): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-incidents-'));
  const db = await openDatabase({ dataDir });
  const store = new SqlIncidentStore(db, { connection: DEFAULT_CONNECTION });
  const t0 = Date.now() - count * 1_000;
  for (let i = 0; i < count; i += 1) {
    const key = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    await store.record({
      key,
      eventId: key,
      at: t0 + i * 1_000,
      period: 'MINUTE',
      requestsAllowed: 20_000,
      requestsMade: 20_001,
      retryAfterSeconds: 60,
      blockedUntil: t0 + i * 1_000 + 60_000,
      ruleId: 'account-minute',
      scope: 'account',
      operation: 'event-types',
      flags: [],
      headers: { 'retry-after': '60', 'ot-ratelimit-event-id': key },
    });
  }
  await db.close();
  const app = await startConsole(8778, mockUrl, { DATA_DIR: dataDir });
  try {
    let cursor: string | null = null;
    do {
      const page = (await (
        await fetch(
          `${app.url}/api/rate-limits/incidents?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
          {
            headers: app.apiHeaders,
          },
        )
      ).json()) as { nextCursor: string | null };
      cursor = page.nextCursor;
    } while (cursor);
    // A browser reconnecting 400 changes behind: the stream replays them (replay is bounded at
    // 500 changes; a browser further behind, e.g. from the very beginning of 10,000, is told to
    // start over and reloads the history through the paged API read above instead).
    const controller = new AbortController();
    // A replay that stalls fails the scenario instead of holding up the whole run.
    const deadline = setTimeout(() => controller.abort(), 120_000);
    const lastEventId = Math.max(0, count - 400);
    const stream = await fetch(`${app.url}/api/rate-limits/stream?lastEventId=${lastEventId}`, {
      headers: app.apiHeaders,
      signal: controller.signal,
    });
    const reader = stream.body?.getReader();
    let received = 0;
    const decoder = new TextDecoder();
    // Events are counted whole: a chunk may end in the middle of one.
    let pending = '';
    while (reader) {
      const { value, done } = await reader.read();
      if (done) break;
      const events = (pending + decoder.decode(value, { stream: true })).split('\n\n');
      pending = events.pop() ?? '';
      received += events.filter((event) => event.includes('event: incident')).length;
      if (events.some((event) => event.includes('event: ready'))) break;
    }
    // Replay is bounded (500 changes); a browser further behind is told to start over.
    if (received === 0 || received > 500) {
      throw new Error(`the stream replayed ${received} incidents, expected 1 to 500`);
    }
    clearTimeout(deadline);
    controller.abort();
    return app.rssMb();
  } finally {
    await app.stop();
  }
}
