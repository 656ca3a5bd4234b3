// Scenario: what an audited v4 data-subject lookup costs. The same basic-details call against the
// mock upstream directly (with a bearer token, as the console sends it) and through the console
// (an admin's lookup: validation, governor, audit intent and outcome written before the answer
// leaves), at one connection and at 16, with the embedded store (SQLite under a fresh DATA_DIR)
// and with PostgreSQL. The bars are the latency the console adds at one connection, embedded, and
// at sixteen against one on each engine (group commit).
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { DEMO_IDENTIFIERS } from '../../src/shared/data-subject-demo';
import { PLATFORM_OPERATIONS, TOKEN_OPERATION } from '../../src/shared/platform-operations';
import { startConsole, startMockUpstream } from '../lib/console';
import { median, percentile } from '../lib/load';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const PORTS = { mock: 8764, console: 8765 };
/** The governor must not be what is measured: the account limits are raised, as an override would. */
const NO_GOVERNOR_BLOCKING = {
  ACCOUNT_MINUTE_LIMIT: '100000000',
  ACCOUNT_HOUR_LIMIT: '1000000000',
};

interface Call {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body?: (index: number) => string;
}

/** `count` calls over `connections` keep-alive connections; each call's latency in ms. */
async function latencies(call: Call, connections: number, count: number): Promise<number[]> {
  const agent = new Agent({ connections, keepAliveTimeout: 30_000 });
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      const t0 = performance.now();
      const response = await request(call.url, {
        method: call.method,
        headers: call.headers,
        ...(call.body ? { body: call.body(index) } : {}),
        dispatcher: agent,
      });
      await response.body.arrayBuffer();
      if (response.statusCode !== 200)
        throw new Error(`${call.url} answered ${response.statusCode}`);
      times.push(performance.now() - t0);
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    await agent.close();
  }
  return times;
}

async function bearerToken(mockUrl: string): Promise<string> {
  const response = await fetch(`${mockUrl}${TOKEN_OPERATION.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
  });
  const { access_token: token } = (await response.json()) as { access_token: string };
  return token;
}

/**
 * The p50 of one durable 4 KB write (write + fdatasync) on the disk the consoles' DATA_DIR is on:
 * an audited lookup commits twice (its intent before the call, its outcome before the answer),
 * and the embedded store's commit waits for this, so it is the floor of the added latency.
 */
function durableWriteP50(count: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'bench-fsync-'));
  const fd = openSync(join(dir, 'probe'), 'w');
  const block = Buffer.alloc(4096, 1);
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const t0 = performance.now();
      writeSync(fd, block);
      fdatasyncSync(fd);
      times.push(performance.now() - t0);
    }
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
  return median(times);
}

const identifier = (index: number) => DEMO_IDENTIFIERS[index % DEMO_IDENTIFIERS.length] ?? '';

export async function auditedLookupScenario(ctx: BenchContext): Promise<Figure[]> {
  // Each console is fresh per round and sees fewer lookups than the operation's module rule
  // allows in a minute (1,000), so nothing is held back by the governor.
  // With the warm-up, 940 lookups per console: within the minute's 1,000 of the module rule.
  const counts = {
    warmUp: ctx.smoke ? 16 : 160,
    1: ctx.smoke ? 30 : 300,
    16: ctx.smoke ? 32 : 480,
  } as const;
  const mock = await startMockUpstream(PORTS.mock, { MOCK_RATE_LIMITS: 'off' });
  const engines: Array<[string, Record<string, string>]> = [['embedded store', {}]];
  const postgres = process.env.TEST_DATABASE_URL ?? process.env.BENCH_DATABASE_URL;
  if (postgres) engines.push(['PostgreSQL', { DATABASE_URL: postgres }]);
  else ctx.log('  no PostgreSQL (TEST_DATABASE_URL): the PostgreSQL figures are missing');
  const samples = new Map<string, number[]>();
  const add = (key: string, values: number[]) =>
    samples.set(key, [...(samples.get(key) ?? []), ...values]);
  try {
    const direct: Call = {
      url: `${mock.url}${PLATFORM_OPERATIONS.getDataSubjectBasicDetailsV4.path}`,
      method: 'GET',
      headers: {
        authorization: `Bearer ${await bearerToken(mock.url)}`,
        identifier: identifier(0),
      },
    };
    for (let round = 1; round <= ctx.rounds; round += 1) {
      for (const connections of [1, 16] as const) {
        add(`upstream ${connections}`, await latencies(direct, connections, counts[connections]));
      }
      for (const [engine, env] of engines) {
        const app = await startConsole(PORTS.console, mock.url, {
          ...NO_GOVERNOR_BLOCKING,
          ...env,
        });
        try {
          const lookup: Call = {
            url: `${app.url}/api/data-subjects/lookups`,
            method: 'POST',
            headers: { ...app.apiHeaders, 'content-type': 'application/json' },
            body: (index) =>
              JSON.stringify({
                operation: 'v4-basic-details',
                params: { identifier: identifier(index) },
                // LOOKUP_PURPOSE is required by default: every lookup states why.
                purpose: { category: 'support ticket', reference: 'BENCH-1' },
              }),
          };
          // Lookups first, not measured: the console's token request is not part of a lookup's
          // cost, and neither is the JIT's warm-up. A console serves for days; its first few
          // hundred lookups after a start run partly in V8's interpreter, and measured from the
          // first call the one-connection figure was that warm-up (its CPU per lookup twice the
          // sixteen-connection run's, which came after it). The upstream is warm too: the mock
          // has served it before. Sixteen at once, so the group commit's batches are warmed too.
          await latencies(lookup, 16, counts.warmUp);
          for (const connections of [1, 16] as const) {
            const cpuBefore = app.cpuMs();
            add(
              `${engine} ${connections}`,
              await latencies(lookup, connections, counts[connections]),
            );
            add(`cpu ${engine} ${connections}`, [(app.cpuMs() - cpuBefore) / counts[connections]]);
          }
        } finally {
          await app.stop();
        }
      }
      ctx.log(`  audited lookup round ${round}/${ctx.rounds} done`);
    }
  } finally {
    await mock.stop();
  }
  const s = 'Audited v4 lookup (basic details)';
  const figures: Figure[] = [
    figure(
      s,
      'this disk’s durable 4 KB write (write + fdatasync), p50',
      durableWriteP50(ctx.smoke ? 20 : 300),
      'ms',
      undefined,
      'a lookup commits twice, each waiting for one',
    ),
  ];
  for (const connections of [1, 16] as const) {
    const upstream = samples.get(`upstream ${connections}`) ?? [];
    figures.push(
      figure(s, `upstream directly: p50 at ${connections} connection(s)`, median(upstream), 'ms'),
      figure(
        s,
        `upstream directly: p99 at ${connections} connection(s)`,
        percentile(upstream, 99),
        'ms',
      ),
    );
    for (const [engine] of engines) {
      const own = samples.get(`${engine} ${connections}`) ?? [];
      figures.push(
        figure(
          s,
          `console, ${engine}: added p50 at ${connections} connection(s)`,
          median(own) - median(upstream),
          'ms',
          engine === 'embedded store' && connections === 1 ? { op: '<=', value: 3 } : undefined,
        ),
        figure(
          s,
          `console, ${engine}: added p99 at ${connections} connection(s)`,
          percentile(own, 99) - percentile(upstream, 99),
          'ms',
        ),
        figure(
          s,
          `console, ${engine}: CPU time per lookup at ${connections} connection(s)`,
          median(samples.get(`cpu ${engine} ${connections}`) ?? []),
          'ms',
          undefined,
          'user + system time of the console process over the run ÷ lookups (median of rounds)',
        ),
      );
    }
  }
  // Group commit's bar: sixteen lookups at once wait at most twice what one alone waits, as they
  // share commits instead of queueing for one each (store/group-commit.ts). The CPU time per
  // lookup above says how far sharing commits can go: one process runs one lookup's code at a
  // time, so sixteen at once also wait for each other's CPU. The same ratio of the upstream alone,
  // a mock that does almost nothing per request, says what the machine itself does at sixteen:
  // where it is far above 2, the load generator and the servers are queueing for the cores.
  const upstreamP50 = (connections: number) => median(samples.get(`upstream ${connections}`) ?? []);
  figures.push(
    figure(
      s,
      'upstream directly: p50 at 16 connections ÷ at 1',
      upstreamP50(16) / upstreamP50(1),
      'ratio',
      undefined,
      'no console in the path: what this machine does to a request at sixteen at once',
    ),
  );
  for (const [engine] of engines) {
    const added = (connections: number) =>
      median(samples.get(`${engine} ${connections}`) ?? []) - upstreamP50(connections);
    figures.push(
      figure(
        s,
        `console, ${engine}: added p50 at 16 connections ÷ at 1`,
        added(16) / added(1),
        'ratio',
        { op: '<=', value: 2 },
      ),
    );
  }
  return figures;
}
