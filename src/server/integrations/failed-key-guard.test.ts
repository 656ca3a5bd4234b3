// A wrong-key flood is cheap (issue 48): wrong reporting keys are counted per client address, and
// past the bound every report from that address is refused at once with 429 and Retry-After,
// before its key is compared or its body read; other addresses report as before, and the address
// may report again once its minute has passed. The refusal is held before it is sent, so a client
// waiting for its answers sends at most one a second per connection; never more than a bounded
// number of refusals are held at once.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IssuedKeySchema } from '../../shared/integrations';
import { startBffHarness } from '../test-support/bff-harness';
import { createFailedKeyGuard } from './failed-key-guard';
import { expectRateLimitFields } from '../test-support/rate-limit-fields';

type Harness = Awaited<ReturnType<typeof startBffHarness>>;

const NOW = Date.UTC(2026, 2, 10, 9, 30, 20);
const MINUTE = new Date(Math.floor(NOW / 60_000) * 60_000).toISOString();
const FLOODER = '203.0.113.7';
const NEIGHBOUR = '198.51.100.20';

describe('wrong reporting keys per client address', () => {
  let h: Harness;
  let clock = NOW;

  beforeEach(async () => {
    clock = NOW;
    h = await startBffHarness({
      now: () => clock,
      env: {
        TRUST_PROXY: 'true',
        INTEGRATION_FAILED_KEYS_PER_MINUTE: '5',
        // Answered at once here; the hold is tested on the guard itself, below.
        INTEGRATION_FAILED_KEY_HOLD_MS: '0',
      },
    });
  });
  afterEach(() => h.close());

  const wrongKey = () => `pacr_${randomBytes(32).toString('base64url')}`;
  const body = JSON.stringify({
    minutes: [{ minute: MINUTE, method: 'GET', path: '/v1/preferences', requests: 3 }],
  });
  /** A report from `address`; `read` is set once anything reads its body. */
  const reportFrom = (address: string, key: string) => {
    const seen = { read: false };
    // No queue: pulled only when something reads the body.
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          seen.read = true;
          controller.enqueue(new TextEncoder().encode(body));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const response = h.app.request('/api/integrations/reports', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${key}`,
        'X-Forwarded-For': address,
        // As every HTTP client sends a body it has whole (the size check then reads nothing).
        'Content-Length': String(Buffer.byteLength(body)),
      },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    return { response, seen };
  };

  it('refuses an address past its bound before reading the body, and only that address', async () => {
    const registered = await h.request('/api/integrations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Nightly consent sync' }),
    });
    const { key } = IssuedKeySchema.parse(await registered.json());

    for (let n = 0; n < 5; n += 1) {
      expect((await reportFrom(FLOODER, wrongKey()).response).status).toBe(401);
    }
    const refused = reportFrom(FLOODER, wrongKey());
    const answer = await refused.response;
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(expectRateLimitFields(answer).spent).toBe('integration-wrong-keys');
    expect(await answer.json()).toMatchObject({
      title: 'Too many wrong reporting keys from this address',
    });
    expect(refused.seen.read).toBe(false);
    // Even a right key is refused from there until the minute is over: nothing is compared.
    const right = reportFrom(FLOODER, key);
    expect((await right.response).status).toBe(429);
    expect(right.seen.read).toBe(false);

    // Another address is not held back by the flood.
    const neighbour = reportFrom(NEIGHBOUR, key);
    expect((await neighbour.response).status).toBe(202);
    expect(neighbour.seen.read).toBe(true);

    // A minute later the address may report again.
    clock = NOW + 61_000;
    expect((await reportFrom(FLOODER, key).response).status).toBe(202);
  });
});

describe('holding refusals', () => {
  it('holds each refusal for the pause, and answers at once while the most allowed are held', async () => {
    const pauses: Array<{ ms: number; release: () => void }> = [];
    const guard = createFailedKeyGuard({
      perMinute: 1,
      now: () => NOW,
      holdMs: 1_000,
      pause: (ms) => new Promise<void>((release) => pauses.push({ ms, release })),
    });
    let answered = 0;
    const held = Array.from({ length: 200 }, () => guard.hold().then(() => (answered += 1)));
    await Promise.resolve();
    expect(pauses).toHaveLength(200);
    expect(pauses.every((pause) => pause.ms === 1_000)).toBe(true);
    expect(answered).toBe(0);
    // The 201st is not held: a client that does not wait cannot pile up open requests.
    await guard.hold();
    expect(pauses).toHaveLength(200);
    for (const pause of pauses) pause.release();
    await Promise.all(held);
    expect(answered).toBe(200);
    // Once they are sent, the next is held again.
    void guard.hold();
    expect(pauses).toHaveLength(201);
    pauses.at(-1)?.release();
  });
});
