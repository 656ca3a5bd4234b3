// Environment of the standalone mock upstream (`npm run mock-upstream`), validated once at start:
// the only place in src/mocks that reads process.env.
import * as z from 'zod';
import { DEFAULT_EVENT_TYPE_COUNT, MAX_EVENT_TYPE_COUNT } from './data/event-types';
import {
  DEFAULT_MOCK_CLIENT_ID,
  DEFAULT_MOCK_CLIENT_SECRET,
  DEFAULT_TOKEN_TTL_SECONDS,
} from './state';

/** The standalone mock's settings. */
export interface MockConfig {
  readonly host: string;
  readonly port: number;
  readonly eventTypeCount: number;
  readonly tokenTtlSeconds: number;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Which account limits of docs/rate-limit-model.md the mock enforces. */
  readonly accountTier: 'production' | 'sandbox';
  /** Requests per minute that simulated other clients of the account make. */
  readonly backgroundRpm: number;
  /** False to serve without the published rate limits (e.g. raw throughput benchmarks). */
  readonly rateLimits: boolean;
}

/** A bad environment value; the message is one line naming the variable. */
export class MockConfigError extends Error {
  override name = 'MockConfigError';
}

function integer(min: number, max: number, fallback: number) {
  const expected = `expected an integer from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d{1,9}$/, expected)
    .transform(Number)
    .pipe(z.int().min(min, expected).max(max, expected))
    .default(fallback);
}

function hostName(fallback: string) {
  return z
    .string()
    .regex(/^[A-Za-z0-9.:[\]-]{1,253}$/, 'expected a host name or IP address')
    .default(fallback);
}

function credential(fallback: string) {
  return (
    z
      .string()
      .max(500, 'expected at most 500 characters')
      // eslint-disable-next-line no-control-regex
      .regex(/^[^\u0000-\u001f\u007f]+$/, 'expected no control characters')
      .default(fallback)
  );
}

const MockEnvSchema = z.object({
  MOCK_HOST: hostName('127.0.0.1'),
  MOCK_PORT: integer(0, 65_535, 8788),
  MOCK_EVENT_TYPES: integer(1, MAX_EVENT_TYPE_COUNT, DEFAULT_EVENT_TYPE_COUNT),
  MOCK_TOKEN_TTL_SECONDS: integer(1, 86_400, DEFAULT_TOKEN_TTL_SECONDS),
  MOCK_CLIENT_ID: credential(DEFAULT_MOCK_CLIENT_ID),
  MOCK_CLIENT_SECRET: credential(DEFAULT_MOCK_CLIENT_SECRET),
  MOCK_ACCOUNT_TIER: z
    .enum(['production', 'sandbox'], { error: 'expected production or sandbox' })
    .default('production'),
  MOCK_BACKGROUND_RPM: integer(0, 1_000_000, 0),
  MOCK_RATE_LIMITS: z.enum(['on', 'off'], { error: 'expected on or off' }).default('on'),
});

/**
 * Reads and validates the mock's variables; an empty value counts as unset. Throws a
 * {@link MockConfigError} naming the first bad variable (never echoing a secret's value).
 */
export function readMockConfig(env: NodeJS.ProcessEnv = process.env): MockConfig {
  const present = Object.fromEntries(
    Object.keys(MockEnvSchema.shape)
      .filter((name) => env[name] !== undefined && env[name] !== '')
      .map((name) => [name, env[name]]),
  );
  const parsed = MockEnvSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new MockConfigError(`Invalid ${name}: ${issue?.message ?? 'bad value'}`);
  }
  const values = parsed.data;
  return {
    host: values.MOCK_HOST,
    port: values.MOCK_PORT,
    eventTypeCount: values.MOCK_EVENT_TYPES,
    tokenTtlSeconds: values.MOCK_TOKEN_TTL_SECONDS,
    clientId: values.MOCK_CLIENT_ID,
    clientSecret: values.MOCK_CLIENT_SECRET,
    accountTier: values.MOCK_ACCOUNT_TIER,
    backgroundRpm: values.MOCK_BACKGROUND_RPM,
    rateLimits: values.MOCK_RATE_LIMITS === 'on',
  };
}
