// Traces as an operator's collector receives them: the SDK started as the console starts it, from
// OTEL_* variables, exporting OTLP/HTTP JSON to a receiver this test runs. One lookup of Ada shows
// every step as a span of one trace continued from the browser's traceparent, the platform calls
// carry it on, the log line and the problem answer name it, and no attribute holds anything personal.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDENTIFIERS } from '../../shared/data-subject-demo';
import { createLogger } from './logger';
import { harnessPerTest } from '../test-support/harness-per-test';
import { startTracing, tracingRequested, type Tracing } from './tracing';
import { withPurpose } from '../test-support/lookup-purpose';

const ADA = DEMO_IDENTIFIERS[0]!;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: OtlpAttribute[];
  events?: { name: string; attributes?: OtlpAttribute[] }[];
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
}

/** An OTLP/HTTP receiver keeping every export request's JSON body. */
async function startReceiver(): Promise<{ url: string; exports: OtlpExport[]; server: Server }> {
  const exports: OtlpExport[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/v1/traces') exports.push(JSON.parse(body) as OtlpExport);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, exports, server };
}

const spansOf = (exports: OtlpExport[]) =>
  exports
    .flatMap((e) => e.resourceSpans ?? [])
    .flatMap((r) => r.scopeSpans ?? [])
    .flatMap((s) => s.spans ?? []);

/** Every attribute of every span (its events' too) and of every resource, as key and text. */
function everyAttribute(exports: OtlpExport[]): [string, string][] {
  const text = (value: OtlpValue): string =>
    value.arrayValue
      ? (value.arrayValue.values ?? []).map(text).join(' ')
      : String(value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue ?? '');
  const pairs = (attributes: OtlpAttribute[] = []) =>
    attributes.map((a): [string, string] => [a.key, text(a.value)]);
  return exports.flatMap((e) =>
    (e.resourceSpans ?? []).flatMap((r) => [
      ...pairs(r.resource?.attributes),
      ...(r.scopeSpans ?? []).flatMap((s) =>
        (s.spans ?? []).flatMap((span) => [
          ['span.name', span.name] as [string, string],
          ...pairs(span.attributes),
          ...(span.events ?? []).flatMap((event) => pairs(event.attributes)),
        ]),
      ),
    ]),
  );
}

const attribute = (span: OtlpSpan, key: string) =>
  span.attributes?.find((a) => a.key === key)?.value;

describe('tracingRequested', () => {
  it('is on for an OTLP endpoint or a traces exporter, off otherwise', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_SERVICE_NAME: 'console' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(
      tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBe(false);
  });
});

describe('a lookup of Ada, traced', { timeout: 60_000 }, () => {
  const start = harnessPerTest();
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let tracing: Tracing;
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    // What an operator sets; the SDK reads them itself.
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
    tracing = await startTracing(process.env, createLogger('silent'));
  });
  afterAll(async () => {
    receiver.server.close();
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
  });

  it('shows every step in one trace, continues traceparent, and holds nothing personal', async () => {
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) {
            logLines.push(JSON.parse(line) as Record<string, unknown>);
          }
          done();
        },
      }),
    );
    const h = await start({ logger });
    const cookie = await h.signIn('admin');
    const lookup = (traceparent: string, body: unknown) =>
      h.request('/api/data-subjects/lookups', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', traceparent, Cookie: cookie },
        body: JSON.stringify(withPurpose(body)),
      });
    const answer = await lookup(TRACEPARENT, {
      operation: 'v4-details',
      params: { identifier: ADA },
    });
    expect(answer.status).toBe(200);
    // A malformed traceparent is ignored: a new trace begins, and a problem answer names it.
    const refused = await lookup('00-not-a-trace-id-01', { operation: 'v4-details', params: {} });
    expect(refused.status).toBe(400);
    const problem = (await refused.json()) as { traceId?: string };
    expect(problem.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(problem.traceId).not.toBe(TRACE_ID);

    await tracing.shutdown();
    const spans = spansOf(receiver.exports);
    const ours = spans.filter((span) => span.traceId === TRACE_ID);
    const names = ours.map((span) => span.name);
    for (const step of [
      'POST /api/data-subjects/lookups',
      'session check',
      'audit intent',
      'governor wait',
      'token fetch',
      'platform call',
      'audit outcome',
    ]) {
      expect(names, `a "${step}" span`).toContain(step);
    }
    const server = ours.find((span) => span.name === 'POST /api/data-subjects/lookups')!;
    // Continued from the browser's span.
    expect(server.parentSpanId).toBe('00f067aa0ba902b7');
    const operations = ours
      .filter((span) => span.name === 'platform call')
      .map((span) => attribute(span, 'console.operation_id')?.stringValue);
    expect(operations).toContain('v4-details');
    expect(operations).toContain('token');
    // Every platform call carried the trace on.
    const lookupCall = h.sent.find((request) => request.operationId === 'v4-details')!;
    expect(lookupCall.headers.traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    // The malformed one's spans are a trace of their own, the one the problem named.
    expect(spans.some((span) => span.traceId === problem.traceId)).toBe(true);
    // The request's log line names its trace.
    const requestLine = logLines.find(
      (line) => line.msg === 'request' && line.route === '/api/data-subjects/lookups',
    );
    expect(requestLine?.traceId).toBe(TRACE_ID);

    // Nothing personal anywhere: not Ada's address (nor its URL-encoded form), no secret, no
    // token, no cookie, and no attribute that holds a URL or a query string.
    const forbidden = [
      ADA,
      encodeURIComponent(ADA),
      h.mock.clientSecret,
      h.config.auth.sessionSecret,
      cookie.split('=')[1]!,
      'Bearer',
    ];
    const attributes = everyAttribute(receiver.exports);
    expect(attributes.length).toBeGreaterThan(20);
    for (const [key, value] of attributes) {
      for (const secret of forbidden) expect(value, key).not.toContain(secret);
      expect(key).not.toMatch(/^(url\.|http\.(url|target)|url$)/);
      expect(value, key).not.toMatch(/https?:\/\/|\?/);
    }
  });
});
