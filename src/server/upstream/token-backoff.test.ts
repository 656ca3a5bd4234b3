// What a broken secret costs the token endpoint: after a failure the console backs off (single
// flight, growing delay with jitter, capped at 60 s), and every console call meanwhile fails at
// once with the same diagnosis. Time is an injected clock: no sleeps.
import { describe, expect, it } from 'vitest';
import type { Transport } from './http-transport';
import { TOKEN_BACKOFF, tokenBackoffMs } from './token-backoff';
import { TokenError } from './token-failure';
import { TokenManager, type TokenRequestEvent } from './token-manager';

/** A token endpoint that refuses the secret, as a certified OAuth server does, and counts. */
function refusingEndpoint() {
  let requests = 0;
  let fixed = false;
  const transport: Transport = async () => {
    requests += 1;
    return fixed
      ? {
          status: 200,
          headers: {},
          body: JSON.stringify({ access_token: 'good', expires_in: 3600 }),
        }
      : {
          status: 401,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            error: 'invalid_client',
            error_description: 'client authentication failed',
          }),
        };
  };
  return {
    transport,
    requests: () => requests,
    fix() {
      fixed = true;
    },
  };
}

function tokensFor(transport: Transport, clock: { now: number }, random: () => number) {
  const events: TokenRequestEvent[] = [];
  const tokens = new TokenManager({
    tokenUrl: new URL('https://platform.test/api/access/v1/oauth/token'),
    clientId: 'console',
    clientSecret: 'wrong-secret',
    clientAuth: 'body',
    defaultTtlSeconds: 300,
    transport,
    now: () => clock.now,
    random,
    onTokenRequest: (event) => events.push(event),
  });
  return { tokens, events };
}

/** A minute of console traffic: 10 page views a second, each asking for 3 tokens at once. */
async function aMinuteOfPageViews(tokens: TokenManager, clock: { now: number }) {
  const failures: TokenError[] = [];
  const end = clock.now + 60_000;
  for (; clock.now < end; clock.now += 100) {
    const calls = await Promise.allSettled([
      tokens.getToken(),
      tokens.getToken(),
      tokens.getToken(),
    ]);
    for (const call of calls) if (call.status === 'rejected') failures.push(call.reason);
  }
  return failures;
}

describe('token backoff', () => {
  it.each([
    ['no jitter drawn', () => 0],
    ['half the jitter', () => 0.5],
    ['all the jitter', () => 0.999],
  ])(
    'a broken secret costs the endpoint a few requests a minute, not one per page view (%s)',
    async (_, random) => {
      const endpoint = refusingEndpoint();
      const clock = { now: 0 };
      const { tokens, events } = tokensFor(endpoint.transport, clock, random);

      const failures = await aMinuteOfPageViews(tokens, clock);

      // 1,800 console calls in the first minute.
      expect(failures).toHaveLength(1_800);
      expect(endpoint.requests()).toBeGreaterThanOrEqual(5);
      expect(endpoint.requests()).toBeLessThanOrEqual(8);
      // Every call was told the real cause, not just the ones that reached the endpoint.
      for (const failure of failures) {
        expect(failure).toBeInstanceOf(TokenError);
        expect(failure.reason).toBe('credentials-refused');
        expect(failure.message).toContain('invalid_client: “client authentication failed”');
      }
      // The log and metrics saw each request once, each with its status, error and next try.
      expect(events).toHaveLength(endpoint.requests());
      expect(events[0]).toMatchObject({
        outcome: 'failure',
        status: 401,
        oauthError: 'invalid_client',
        reason: 'credentials-refused',
        retryInMs: expect.any(Number),
      });

      // Once the delay has reached its cap: one or two requests a minute.
      const before = endpoint.requests();
      await aMinuteOfPageViews(tokens, clock);
      expect(endpoint.requests() - before).toBeGreaterThanOrEqual(1);
      expect(endpoint.requests() - before).toBeLessThanOrEqual(2);
    },
  );

  it('grows the delay from about a second to the cap, with jitter', () => {
    const low = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => tokenBackoffMs(n, () => 0));
    const high = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => tokenBackoffMs(n, () => 0.999));
    expect(low).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(high.at(-1)).toBeLessThanOrEqual(TOKEN_BACKOFF.capMs);
    expect(high[0]).toBeGreaterThan(low[0]!);
  });

  it('fails fast during the backoff, then a fixed secret gets a token at the next try', async () => {
    const endpoint = refusingEndpoint();
    const clock = { now: 0 };
    const { tokens } = tokensFor(endpoint.transport, clock, () => 0.5);
    const first = (await tokens.getToken().catch((e: unknown) => e)) as TokenError;
    expect(first.retryAt).toBe(750);
    clock.now = 500;
    await expect(tokens.getToken()).rejects.toBe(first);
    expect(tokens.lastFailure()).toBe(first);
    expect(endpoint.requests()).toBe(1);

    endpoint.fix();
    clock.now = 750;
    expect(await tokens.getToken()).toBe('good');
    expect(tokens.lastFailure()).toBeUndefined();
    expect(endpoint.requests()).toBe(2);
  });
});
