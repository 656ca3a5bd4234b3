// A collector that is away: spans are dropped from a bounded queue, nothing the console does waits
// on the export, and the failure is logged once a minute at most (the clock is the test's).
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from './logger';
import { freePort } from '../test-support/free-port';
import { traceStep } from './traced-steps';
import { EXPORT_WARNING_INTERVAL_MS, startTracing, type Tracing } from './tracing';

describe('traces with the collector unreachable', { timeout: 60_000 }, () => {
  let clock = 1_000_000;
  const warnings: string[] = [];
  let tracing: Tracing;

  beforeAll(async () => {
    // Nothing listens there: every export is refused.
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${await freePort()}`;
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
    process.env.OTEL_EXPORTER_OTLP_TIMEOUT = '300';
    process.env.OTEL_BSP_SCHEDULE_DELAY = '10';
    process.env.OTEL_BSP_MAX_QUEUE_SIZE = '16';
    process.env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE = '4';
    const logger = createLogger(
      'warn',
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          warnings.push(...chunk.toString().split('\n').filter(Boolean));
          done();
        },
      }),
    );
    tracing = await startTracing(process.env, logger, () => clock);
  });
  afterAll(async () => {
    for (const name of [
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'OTEL_EXPORTER_OTLP_PROTOCOL',
      'OTEL_EXPORTER_OTLP_TIMEOUT',
      'OTEL_BSP_SCHEDULE_DELAY',
      'OTEL_BSP_MAX_QUEUE_SIZE',
      'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
    ]) {
      delete process.env[name];
    }
    await Promise.race([
      tracing.shutdown().catch(() => {}),
      new Promise((resolve) => setTimeout(resolve, 1_000)),
    ]);
  });

  it('drops spans without waiting and warns once a minute at most', async () => {
    // Far more spans than the queue holds, each step done as soon as its work is: none waits.
    let done = 0;
    for (let i = 0; i < 1_000; i += 1) await traceStep('step', {}, async () => void (done += 1));
    expect(done).toBe(1_000);
    await vi.waitFor(() => expect(warnings.length).toBeGreaterThanOrEqual(1), {
      timeout: 30_000,
      interval: 50,
    });
    const first = JSON.parse(warnings[0]!) as { msg: string };
    expect(first.msg).toMatch(/traces could not be exported; spans are being dropped/);
    // Failures go on within the same minute: counted, not logged. A minute later the next one is
    // logged, with how many failed in between.
    for (let i = 0; i < 200; i += 1) await traceStep('step', {}, async () => {});
    clock += EXPORT_WARNING_INTERVAL_MS - 1;
    for (let i = 0; i < 200; i += 1) await traceStep('step', {}, async () => {});
    expect(warnings).toHaveLength(1);
    clock += 1;
    for (let i = 0; i < 200; i += 1) await traceStep('step', {}, async () => {});
    await vi.waitFor(() => expect(warnings.length).toBe(2), { timeout: 30_000, interval: 50 });
    const second = JSON.parse(warnings[1]!) as { failures: number };
    expect(second.failures).toBeGreaterThan(1);
  });
});
