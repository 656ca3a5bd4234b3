// The worst report stream one key may send (docs/account-wide-view.md, "What one key can do"):
// the per-key limit's 120 reports a minute, each with 500 minute entries spread over every
// documented operation and minute it may write into, and 200 429s with distinct event ids spread
// likewise. Measures the database's growth (file and write-ahead log) and the rows the key holds
// afterwards, against the documented bound for a key's first hour.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import Database from 'better-sqlite3';
import { OPERATION_TEMPLATES } from '../../src/shared/operation-templates';
import { startConsole, startMockUpstream } from '../lib/console';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const PORTS = { mock: 8784, console: 8785 };
const REPORTS_A_MINUTE = 120;
/** The documented bound for one key's first hour (docs/account-wide-view.md). */
const FIRST_HOUR_ROWS = 5_166;
/** The ingest route's body limit (REQUEST_LIMITS.maxBodyBytes), less a margin. */
const MAX_REPORT_BYTES = 64 * 1024 - 256;

const bytesIn = (dir: string) =>
  readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);

/**
 * One report as large as the ingest accepts (64 KB): 200 429s with distinct event ids, then as
 * many minute entries as fit, each spread at random over the operations and the hour an entry
 * may be in.
 */
function worstReport(now: number): string {
  const minuteOf = (offset: number) =>
    new Date(Math.floor(now / 60_000) * 60_000 - offset * 60_000);
  const randomMinute = () => minuteOf(Math.floor(Math.random() * 60));
  const throttles = Array.from({ length: 200 }, () => ({
    at: new Date(randomMinute().getTime() + 1_000).toISOString(),
    method: 'GET',
    path: '/v1/preferences',
    headers: { 'ot-ratelimit-event-id': randomUUID() },
  }));
  const minutes: unknown[] = [];
  for (let index = 0; index < 500; index += 1) {
    const pair = OPERATION_TEMPLATES[index % OPERATION_TEMPLATES.length]!;
    minutes.push({
      minute: randomMinute().toISOString(),
      method: pair.method,
      path: pair.template.replace(/\{[^}]+\}/g, 'x').replace('*', 'x'),
      requests: 10_000_000,
    });
    if (JSON.stringify({ minutes, throttles }).length > MAX_REPORT_BYTES) {
      minutes.pop();
      break;
    }
  }
  return JSON.stringify({ minutes, throttles });
}

export async function reportFloodScenario(ctx: BenchContext): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'console-bench-flood-'));
  const mock = await startMockUpstream(PORTS.mock, { MOCK_RATE_LIMITS: 'off' });
  const app = await startConsole(PORTS.console, mock.url, { DATA_DIR: dataDir });
  try {
    const response = await fetch(`${app.url}/api/integrations`, {
      method: 'POST',
      headers: { ...app.apiHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Flooding integration' }),
    });
    const { key } = (await response.json()) as { key: string };
    const before = bytesIn(dataDir);
    const reports = ctx.smoke ? 10 : REPORTS_A_MINUTE;
    const started = performance.now();
    let accepted = 0;
    for (let sent = 0; sent < reports; sent += 1) {
      const wait = started + (sent * 60_000) / REPORTS_A_MINUTE - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const answer = await fetch(`${app.url}/api/integrations/reports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: worstReport(Date.now()),
      });
      await answer.arrayBuffer();
      if (answer.status === 202) accepted += 1;
      else if (sent === 0) ctx.log(`  a report was answered ${answer.status}`);
    }
    const grownMb = (bytesIn(dataDir) - before) / 1024 / 1024;
    const db = new Database(join(dataDir, 'console.sqlite'), { readonly: true });
    const count = (table: string) =>
      (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    const rows = count('integration_minutes') + count('integration_throttles');
    db.close();
    ctx.log(
      `  ${accepted} of ${reports} worst reports accepted in ${Math.round((performance.now() - started) / 1000)} s: ${rows} rows, database grew ${grownMb.toFixed(2)} MB`,
    );
    // After its first minute a key can only write into one new minute a minute (41 rows at most).
    const perHourMb = rows > 0 ? (grownMb / rows) * (rows + 59 * 41) : 0;
    const s = 'Report flood (one key, 120 worst-case reports a minute)';
    return [
      figure(
        s,
        'database growth per key in its first hour (measured minute, then the bound)',
        perHourMb,
        'MB',
      ),
      figure(s, 'rows the key holds after one minute of it', rows, 'rows', {
        op: '<=',
        value: FIRST_HOUR_ROWS,
      }),
      figure(s, 'database growth in that minute (file and write-ahead log)', grownMb, 'MB'),
    ];
  } finally {
    await app.stop();
    await mock.stop();
  }
}
