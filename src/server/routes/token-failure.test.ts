// A broken client secret as an operator meets it: the page's problem, /readyz, /api/health (the
// banner) and the log line all name the same cause, in the same words, with the token endpoint's
// own error; none carries the secret; and page views during the backoff cost the token endpoint
// nothing. The console's clock is injected: no sleeps.
import { describe, expect, it } from 'vitest';
import { capturingLogger } from '../test-support/capturing-logger';
import { harnessPerTest } from '../test-support/harness-per-test';

const start = harnessPerTest();
const SECRET = 'wrong-secret-value';

describe('a refused client secret', () => {
  it('is named alike on the page, /readyz, /api/health and in the log, and backs off', async () => {
    let clock = Date.now();
    const { logger, lines } = capturingLogger();
    const h = await start({ env: { OAUTH_CLIENT_SECRET: SECRET }, logger, now: () => clock });

    const page = await h.request('/api/event-types');
    expect(page.status).toBe(502);
    const problem = (await page.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({
      type: '/problems/upstream-unauthorized',
      title: 'The platform’s token endpoint refused the console’s client credentials',
      cause: 'credentials-refused',
      oauthError: 'invalid_client',
      upstreamStatus: 401,
      detail: expect.stringContaining(
        'It answered 401 invalid_client: “Client authentication failed”.',
      ),
    });

    const ready = (await (await h.app.request('/readyz')).json()) as {
      checks: { token: Record<string, unknown> };
    };
    expect(ready.checks.token).toEqual({
      ok: false,
      cause: 'credentials-refused',
      error: `${String(problem.title)}. ${String(problem.detail)}`,
    });

    const health = await (await h.request('/api/health', {}, { as: 'support' })).json();
    expect(health.platformSignIn).toEqual({
      cause: 'credentials-refused',
      title: problem.title,
      detail: problem.detail,
    });

    const tokenLines = lines.filter((line) => String(line.msg).startsWith('token request'));
    expect(tokenLines[0]).toMatchObject({
      msg: 'token request failed',
      outcome: 'failure',
      encoding: 'multipart',
      status: 401,
      oauthError: 'invalid_client',
      cause: 'credentials-refused',
      retryInMs: expect.any(Number),
    });
    expect(JSON.stringify(lines)).not.toContain(SECRET);
    expect(JSON.stringify([problem, ready, health])).not.toContain(SECRET);

    // Thirty page views within the first half second: no further token request.
    const before = h.mock.stats().tokenRequests;
    for (let view = 0; view < 30; view += 1) {
      const again = await h.request('/api/event-types');
      expect(again.status).toBe(502);
      expect(await again.json()).toMatchObject({ cause: 'credentials-refused' });
      clock += 15;
    }
    expect(h.mock.stats().tokenRequests).toBe(before);
    expect(h.mock.stats().requests['event-types'] ?? 0).toBe(0);
  });
});
