import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';

describe('parseConfig', () => {
  it('runs in demo mode on 127.0.0.1:8787 with no configuration', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8787,
      mode: 'demo',
      upstream: { arrayQueryStyle: 'repeat', accountTier: 'production', timeoutMs: 10_000 },
      oauth: { scope: 'ACTIVITY_LOG', clientAuth: 'body' },
      dataDir: './.data',
    });
  });

  it('switches to live mode with UPSTREAM_BASE_URL and then requires the client credentials', () => {
    expect(() => parseConfig({ UPSTREAM_BASE_URL: 'https://api.example.com' })).toThrow(
      'OAUTH_CLIENT_ID is required when UPSTREAM_BASE_URL is set',
    );
    const config = parseConfig({
      UPSTREAM_BASE_URL: 'https://api.example.com/',
      OAUTH_CLIENT_ID: 'id',
      OAUTH_CLIENT_SECRET: 'secret',
    });
    expect(config.mode).toBe('live');
    expect(config.upstream.baseUrl).toBe('https://api.example.com');
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT must be a port number/],
    [{ PORT: '70000' }, /^PORT must be a port number/],
    [{ ARRAY_QUERY_STYLE: 'pipes' }, /^ARRAY_QUERY_STYLE must be "repeat" or "comma"/],
    [{ ACCOUNT_TIER: 'gold' }, /^ACCOUNT_TIER must be "production" or "sandbox"/],
    [{ UPSTREAM_BASE_URL: 'ftp://x' }, /^UPSTREAM_BASE_URL must be an absolute http\(s\) URL/],
    [{ UPSTREAM_TIMEOUT_MS: '5' }, /^UPSTREAM_TIMEOUT_MS must be a whole number from 100/],
  ])('stops with one line naming the variable for %o', (env, message) => {
    const error = (() => {
      try {
        parseConfig(env);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('never repeats a secret value in its error', () => {
    expect(() =>
      parseConfig({
        UPSTREAM_BASE_URL: 'https://x.example',
        OAUTH_CLIENT_ID: 'id',
        OAUTH_CLIENT_SECRET: '',
      }),
    ).toThrow('OAUTH_CLIENT_SECRET is required');
  });
});
