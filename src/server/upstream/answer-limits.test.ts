// An upstream answer larger than the console accepts is refused with a 502 naming the limit, and
// the console keeps serving: nothing is read past the limit, so no answer can exhaust the heap.
import { describe, expect, it } from 'vitest';
import { harnessPerTest } from '../test-support/harness-per-test';

const start = harnessPerTest();

describe('upstream answer limits', () => {
  it('answers a 502 problem naming the limit, and the next request is served', async () => {
    const harness = await start({
      env: { UPSTREAM_MAX_ANSWER_BYTES: String(64 * 1024) },
      mock: { eventTypeCount: 3_000 },
    });
    const response = await harness.request('/api/event-types');
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({
      title: 'The privacy platform’s answer was too large',
      limitBytes: 64 * 1024,
      detail: expect.stringContaining('(64 KB)'),
    });
    expect((await harness.request('/healthz', {}, { as: null })).status).toBe(200);
  });

  it('applies a per-operation limit over the default', async () => {
    const harness = await start({
      env: {
        UPSTREAM_MAX_ANSWER_BYTES: String(64 * 1024),
        UPSTREAM_MAX_ANSWER_BYTES_BY_OPERATION: `event-types=${8 * 1024 * 1024}`,
      },
      mock: { eventTypeCount: 3_000 },
    });
    expect((await harness.request('/api/event-types')).status).toBe(200);
  });
});
