// The standalone mock's environment: defaults with nothing set, and one clear line per bad value.
import { describe, expect, it } from 'vitest';
import { MockConfigError, readMockConfig } from './config';

describe('readMockConfig', () => {
  it('has working defaults when nothing is set (empty counts as unset)', () => {
    const defaults = {
      host: '127.0.0.1',
      port: 8788,
      eventTypeCount: 480,
      tokenTtlSeconds: 3600,
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
      accountTier: 'production',
      backgroundRpm: 0,
      rateLimits: true,
    };
    expect(readMockConfig({})).toEqual(defaults);
    expect(readMockConfig({ MOCK_PORT: '', MOCK_CLIENT_ID: '' })).toEqual(defaults);
  });

  it('reads every variable', () => {
    expect(
      readMockConfig({
        MOCK_HOST: '0.0.0.0',
        MOCK_PORT: '0',
        MOCK_EVENT_TYPES: '10000',
        MOCK_TOKEN_TTL_SECONDS: '60',
        MOCK_CLIENT_ID: 'client',
        MOCK_CLIENT_SECRET: 's3cr3t with space',
        MOCK_ACCOUNT_TIER: 'sandbox',
        MOCK_BACKGROUND_RPM: '4000',
        MOCK_RATE_LIMITS: 'off',
      }),
    ).toEqual({
      host: '0.0.0.0',
      port: 0,
      eventTypeCount: 10_000,
      tokenTtlSeconds: 60,
      clientId: 'client',
      clientSecret: 's3cr3t with space',
      accountTier: 'sandbox',
      backgroundRpm: 4_000,
      rateLimits: false,
    });
  });

  it.each([
    ['MOCK_PORT', '65536'],
    ['MOCK_PORT', '80a'],
    ['MOCK_EVENT_TYPES', '0'],
    ['MOCK_EVENT_TYPES', '100001'],
    ['MOCK_TOKEN_TTL_SECONDS', '1.5'],
    ['MOCK_HOST', 'local host'],
    ['MOCK_ACCOUNT_TIER', 'gold'],
    ['MOCK_BACKGROUND_RPM', '-1'],
    ['MOCK_RATE_LIMITS', 'yes'],
  ])('names %s when it is %j', (name, value) => {
    expect(() => readMockConfig({ [name]: value })).toThrow(MockConfigError);
    expect(() => readMockConfig({ [name]: value })).toThrow(new RegExp(`^Invalid ${name}: `));
  });

  it('never echoes a secret value in the error', () => {
    let message = '';
    try {
      readMockConfig({ MOCK_CLIENT_SECRET: 'bad\u0001secret' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid MOCK_CLIENT_SECRET: /);
    expect(message).not.toContain('secret\u0001');
    expect(message).not.toContain('bad');
  });
});
