// The steps a lookup's trace does not show, as an operator's collector receives them: a what-if
// replay is a "replay" span of its request, a 429 from the platform is a "platform call" span with
// the platform's incident reference, and a call the console held back is a "governor wait" span
// naming the rule that held it. The SDK is started from OTEL_* variables, as the console does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoOutcomeSchema } from '../../shared/demo-scenarios';
import { createLogger } from './logger';
import { harnessPerTest } from '../test-support/harness-per-test';
import { startTracing, type Tracing } from './tracing';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}
interface OtlpExport {
  resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

const TRACE = (n: number) => `${String(n).padStart(32, 'a')}`;
const traceparent = (n: number) => `00-${TRACE(n)}-00f067aa0ba902b7-01`;

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

describe('replays, refusals and holds, traced', { timeout: 60_000 }, () => {
  const start = harnessPerTest();
  const exports: OtlpExport[] = [];
  let receiver: Server;
  let tracing: Tracing;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.url === '/v1/traces') exports.push(JSON.parse(body) as OtlpExport);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${port}`;
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
    tracing = await startTracing(process.env, createLogger('silent'));
  });
  afterAll(() => {
    receiver.close();
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
  });

  it('shows the replay, the 429 with its event id, and the rule that held a call', async () => {
    // The event-types cache off, so the held call would otherwise reach the platform.
    const h = await start({
      env: { EVENT_TYPES_CACHE_SECONDS: '0' },
      mockRateLimits: true,
      demoControls: true,
    });
    const post = (path: string, body: unknown, n: number) =>
      h.request(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', traceparent: traceparent(n) },
        body: JSON.stringify(body),
      });

    // The platform blocks the account: the demo's probe draws the 429.
    const provoked = await post('/api/demo-controls', { scenario: 'account-minute' }, 2);
    const outcome = DemoOutcomeSchema.parse(await provoked.json());
    expect(outcome.probe.status).toBe(429);
    // The next call is held by the console itself, before anything is sent.
    const sentBefore = h.sent.length;
    const held = await h.request('/api/event-types', { headers: { traceparent: traceparent(3) } });
    expect(held.status).toBe(429);
    expect(h.sent.length).toBe(sentBefore);

    // What the console sent is recorded: replay it.
    await h.planning.consoleTraffic.flush();
    const replay = await post(
      '/api/planning/what-if',
      {
        period: 'hour',
        policy: {
          kind: 'custom',
          accountMinute: 5,
          accountHour: null,
          endpointMinute: null,
          moduleRules: [],
        },
      },
      1,
    );
    expect(replay.status).toBe(200);

    await tracing.shutdown();
    const spans = exports
      .flatMap((e) => e.resourceSpans ?? [])
      .flatMap((r) => r.scopeSpans ?? [])
      .flatMap((s) => s.spans ?? []);
    const inTrace = (n: number) => spans.filter((span) => span.traceId === TRACE(n));

    const replaySpans = inTrace(1);
    const request = replaySpans.find((span) => span.name === 'POST /api/planning/what-if');
    const replayStep = replaySpans.find((span) => span.name === 'replay');
    expect(request, 'the request span').toBeDefined();
    expect(replayStep?.parentSpanId, 'the replay is a step of its request').toBe(request?.spanId);

    const refused = inTrace(2).find(
      (span) =>
        span.name === 'platform call' && attribute(span, 'http.response.status_code') === 429,
    );
    expect(refused, 'the platform call answered 429').toBeDefined();
    expect(attribute(refused!, 'ot_ratelimit.event_id')).toBe(outcome.probe.incidentKey);

    const wait = inTrace(3).find((span) => span.name === 'governor wait');
    expect(wait, 'the governor wait').toBeDefined();
    expect(attribute(wait!, 'console.rule_id')).toBe('account-minute');
    expect(inTrace(3).some((span) => span.name === 'platform call')).toBe(false);
  });
});
