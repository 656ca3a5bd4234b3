// Scenario 1, BFF overhead: the same load against (a) the upstream directly, (b) the console with
// its cache off, (c) with its cache on, (d) a plain reverse proxy, (e) a validating peer (the
// smallest BFF that checks the answer as the console must: validating-peer.ts) — side by side in
// one run. The uncached path's bars are the latency it adds at one connection: at most 1 ms, and
// at most 1.5 × what the validating peer adds. The plain proxy parses nothing, so its figure is
// reported, not a bar: a ratio against a peer that does less work measures the work, not the
// implementation. Throughput against the plain proxy is reported too (at 32 connections identical
// requests in flight share one upstream call, as they do in production). (f) is (b) with
// OpenTelemetry traces on, exported to a sink in this process: what tracing costs the uncached
// path is reported as the difference from (b); (b) itself, tracing off, keeps its bars, and its
// before-and-after figures show that the no-op spans of tracing off cost nothing measurable.
import { createServer } from 'node:http';
import { Agent, request } from 'undici';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startConsole, startMockUpstream } from '../lib/console';
import { median, percentile, runLoad } from '../lib/load';
import { startNodeProcess } from '../lib/processes';
import { figure, type Figure } from '../lib/report';
import { consoleRoot } from '../lib/under-test';
import type { BenchContext } from './context';

const PORTS = {
  mock: 8780,
  uncached: 8781,
  cached: 8782,
  proxy: 8783,
  peer: 8784,
  traced: 8785,
  traceSink: 8786,
};
/** The governor must not be what is measured: the limits are raised as a vendor override would. */
const NO_GOVERNOR_BLOCKING = {
  ACCOUNT_MINUTE_LIMIT: '100000000',
  ACCOUNT_HOUR_LIMIT: '1000000000',
};

interface Target {
  key: 'a' | 'b' | 'c' | 'd' | 'e' | 'f';
  label: string;
  url: string;
  headers: Record<string, string>;
}

/**
 * Latency at one connection, measured here with sub-millisecond resolution: sequential requests
 * over one keep-alive connection.
 */
async function sequentialLatency(
  target: Target,
  count: number,
): Promise<{ p50: number; p99: number; rps: number }> {
  const agent = new Agent({ connections: 1, keepAliveTimeout: 30_000 });
  const times: number[] = [];
  const started = performance.now();
  try {
    for (let i = 0; i < count; i += 1) {
      const t0 = performance.now();
      const response = await request(target.url, { headers: target.headers, dispatcher: agent });
      await response.body.arrayBuffer();
      if (response.statusCode !== 200)
        throw new Error(`${target.label} answered ${response.statusCode}`);
      times.push(performance.now() - t0);
    }
  } finally {
    await agent.close();
  }
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    rps: count / ((performance.now() - started) / 1000),
  };
}

export async function overheadScenario(ctx: BenchContext): Promise<Figure[]> {
  const mock = await startMockUpstream(PORTS.mock, {
    MOCK_EVENT_TYPES: '500',
    MOCK_RATE_LIMITS: 'off',
  });
  const processes = [mock];
  // An OTLP/HTTP receiver that takes every export and keeps nothing, as a healthy collector would.
  const traceSink = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => traceSink.listen(PORTS.traceSink, '127.0.0.1', resolve));
  try {
    const [uncached, cached] = [
      await startConsole(PORTS.uncached, mock.url, {
        EVENT_TYPES_CACHE_SECONDS: '0',
        ...NO_GOVERNOR_BLOCKING,
      }),
      await startConsole(PORTS.cached, mock.url, NO_GOVERNOR_BLOCKING),
    ];
    processes.push(uncached, cached);
    const traced = await startConsole(PORTS.traced, mock.url, {
      EVENT_TYPES_CACHE_SECONDS: '0',
      ...NO_GOVERNOR_BLOCKING,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${PORTS.traceSink}`,
    });
    processes.push(traced);
    const tokenAnswer = (await (
      await fetch(`${mock.url}/api/access/v1/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret&scope=ACTIVITY_LOG',
      })
    ).json()) as { access_token: string };
    const proxy = await startNodeProcess('bench/plain-proxy.ts', {
      name: 'plain proxy',
      port: PORTS.proxy,
      readyPath: '/healthz',
      env: {
        PROXY_UPSTREAM: mock.url,
        PROXY_PORT: String(PORTS.proxy),
        PROXY_BEARER_TOKEN: tokenAnswer.access_token,
      },
    });
    processes.push(proxy);
    const peer = await startNodeProcess('bench/validating-peer.ts', {
      name: 'validating peer',
      port: PORTS.peer,
      readyPath: '/healthz',
      env: {
        PEER_UPSTREAM: mock.url,
        PEER_PORT: String(PORTS.peer),
        PEER_BEARER_TOKEN: tokenAnswer.access_token,
      },
    });
    processes.push(peer);

    const targets: Target[] = [
      {
        key: 'a',
        label: 'upstream directly',
        url: `${mock.url}/api/audit/v4/audits/event-types`,
        headers: { authorization: `Bearer ${tokenAnswer.access_token}` },
      },
      {
        key: 'b',
        label: 'console, cache off',
        url: `${uncached.url}/api/event-types`,
        headers: uncached.apiHeaders,
      },
      {
        key: 'c',
        label: 'console, cache on',
        url: `${cached.url}/api/event-types`,
        headers: cached.apiHeaders,
      },
      { key: 'd', label: 'plain reverse proxy', url: `${proxy.url}/api/event-types`, headers: {} },
      { key: 'e', label: 'validating peer', url: `${peer.url}/api/event-types`, headers: {} },
      {
        key: 'f',
        label: 'console, cache off, tracing on',
        url: `${traced.url}/api/event-types`,
        headers: traced.apiHeaders,
      },
    ];

    const duration = ctx.smoke ? 1 : 5;
    const sequentialCount = ctx.smoke ? 50 : 1_500;
    const one: Record<string, { p50: number[]; p99: number[]; rps: number[] }> = {};
    const many: Record<string, { p50: number[]; p99: number[]; rps: number[] }> = {};
    for (const t of targets) {
      one[t.key] = { p50: [], p99: [], rps: [] };
      many[t.key] = { p50: [], p99: [], rps: [] };
      await runLoad({ url: t.url, connections: 8, durationSeconds: 1, headers: t.headers }); // warm-up
    }
    for (let round = 1; round <= ctx.rounds; round += 1) {
      // Rotate the order each round so no target always runs on a warmer or busier machine.
      const order = targets.map((_, i) => targets[(i + round) % targets.length] as Target);
      for (const t of order) {
        const seq = await sequentialLatency(t, sequentialCount);
        one[t.key]?.p50.push(seq.p50);
        one[t.key]?.p99.push(seq.p99);
        one[t.key]?.rps.push(seq.rps);
        const load = await runLoad({
          url: t.url,
          connections: 32,
          durationSeconds: duration,
          headers: t.headers,
        });
        if (load.non2xx || load.errors)
          throw new Error(`${t.label}: ${load.non2xx} non-2xx, ${load.errors} errors`);
        many[t.key]?.p50.push(load.p50Ms);
        many[t.key]?.p99.push(load.p99Ms);
        many[t.key]?.rps.push(load.requestsPerSecond);
      }
      ctx.log(`  overhead round ${round}/${ctx.rounds} done`);
    }

    const figures: Figure[] = [];
    const s = 'BFF overhead';
    const m = (
      record: Record<string, { p50: number[]; p99: number[]; rps: number[] }>,
      key: string,
      what: 'p50' | 'p99' | 'rps',
    ) => median(record[key]?.[what] ?? []);
    for (const t of targets) {
      figures.push(
        figure(s, `(${t.key}) ${t.label}: req/s at 1 connection`, m(one, t.key, 'rps'), 'req/s'),
      );
      figures.push(
        figure(s, `(${t.key}) ${t.label}: p50 at 1 connection`, m(one, t.key, 'p50'), 'ms'),
      );
      figures.push(
        figure(s, `(${t.key}) ${t.label}: p99 at 1 connection`, m(one, t.key, 'p99'), 'ms'),
      );
      figures.push(
        figure(s, `(${t.key}) ${t.label}: req/s at 32 connections`, m(many, t.key, 'rps'), 'req/s'),
      );
      figures.push(
        figure(s, `(${t.key}) ${t.label}: p50 at 32 connections`, m(many, t.key, 'p50'), 'ms'),
      );
      figures.push(
        figure(s, `(${t.key}) ${t.label}: p99 at 32 connections`, m(many, t.key, 'p99'), 'ms'),
      );
    }
    const rps32 = (key: string) => m(many, key, 'rps');
    // What traces cost the uncached path: a figure, not a bar (it depends on the exporter's
    // protocol and the collector), stated so an operator can weigh it.
    figures.push(
      figure(
        s,
        'f − b: latency tracing on adds, p50 at 1 connection',
        m(one, 'f', 'p50') - m(one, 'b', 'p50'),
        'ms',
      ),
    );
    figures.push(
      figure(
        s,
        'f/b throughput at 32 connections (tracing on ÷ off)',
        rps32('f') / rps32('b'),
        'ratio',
      ),
    );
    figures.push(
      figure(s, 'c/a throughput at 32 connections', rps32('c') / rps32('a'), 'ratio', {
        op: '>=',
        value: 0.75,
      }),
    );
    figures.push(
      figure(
        s,
        'c/d throughput at 32 connections',
        rps32('c') / rps32('d'),
        'ratio',
        { op: '>=', value: 1 },
        'cached console ahead of the plain proxy',
      ),
    );
    figures.push(figure(s, 'b/a throughput at 32 connections', rps32('b') / rps32('a'), 'ratio'));
    figures.push(
      figure(
        s,
        'b/d throughput at 32 connections',
        rps32('b') / rps32('d'),
        'ratio',
        undefined,
        'reported, not a bar',
      ),
    );
    // What reading the answer costs by itself (its bytes decoded, parsed, checked with the shared
    // reader, the checked list serialised and encoded), measured in-process on the same answer:
    // the part of the console's added latency that is the work it exists to do, which a plain
    // proxy does not. The reader comes from the build under test, so a baseline's figure is its
    // own code's.
    const reader = await readerOfBuildUnderTest();
    const answerBytes = Buffer.from(
      await (await request(targets[0]!.url, { headers: targets[0]!.headers })).body.arrayBuffer(),
    );
    const readings: number[] = [];
    for (let i = 0; reader && i < (ctx.smoke ? 50 : 2_000); i += 1) {
      const t0 = performance.now();
      reader(answerBytes);
      readings.push(performance.now() - t0);
    }

    // The latency each adds over the upstream alone, at one connection: the console's own, and its
    // peers' in the same run (a slower machine slows them all).
    const consoleAdds = m(one, 'b', 'p50') - m(one, 'a', 'p50');
    const proxyAdds = m(one, 'd', 'p50') - m(one, 'a', 'p50');
    const peerAdds = m(one, 'e', 'p50') - m(one, 'a', 'p50');
    figures.push(
      figure(s, 'b − a added p50 at 1 connection', consoleAdds, 'ms', { op: '<=', value: 1 }),
      figure(s, 'e − a added p50 at 1 connection (validating peer)', peerAdds, 'ms'),
      figure(s, 'd − a added p50 at 1 connection (plain proxy)', proxyAdds, 'ms'),
      // Left out for a build without the reader rather than reported as a number it never had.
      ...(reader
        ? [
            figure(
              s,
              'reading the answer of 500 (parse, check, and serialise if the check changed it), p50, in-process',
              median(readings.slice(readings.length / 2)), // the first half warms the code up
              'ms',
              undefined,
              'part of b − a',
            ),
          ]
        : []),
      figure(
        s,
        '(b − a) ÷ (e − a): added p50 against the validating peer’s',
        consoleAdds / peerAdds,
        '×',
        { op: '<=', value: 1.5 },
      ),
      figure(
        s,
        '(b − a) ÷ (d − a): added p50 against the plain proxy’s',
        consoleAdds / proxyAdds,
        '×',
        undefined,
        'reported, not a bar: the plain proxy checks nothing',
      ),
    );
    return figures;
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
    traceSink.close();
  }
}

/**
 * The answer reader of the build under test (`checkedEventTypesJson`), loaded from its checkout's
 * source; undefined for a build from before it existed. Earlier builds took the answer as text:
 * JSON.parse reads a Buffer as its UTF-8 text, so they are given the same bytes.
 */
async function readerOfBuildUnderTest(): Promise<((answer: Buffer) => unknown) | undefined> {
  const file = resolve(consoleRoot(), 'src/server/upstream/event-types-json.ts');
  if (!existsSync(file)) return undefined;
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const reader = module.checkedEventTypesJson;
  return typeof reader === 'function' ? (reader as (answer: Buffer) => unknown) : undefined;
}
