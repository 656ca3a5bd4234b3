// Environment -> validated configuration. The one place in the BFF that reads process.env; a
// missing or bad value stops start with one line naming the variable and what is expected.
import { existsSync } from 'node:fs';
import { z } from 'zod';

/** Client id and secret of the built-in mock; they exist in demo mode only. */
export const DEMO_CLIENT_CREDENTIALS = { clientId: 'demo-client', clientSecret: 'demo-secret' };

const port = z.coerce
  .number({ error: 'must be a port number (1-65535)' })
  .int('must be a port number (1-65535)')
  .min(1, 'must be a port number (1-65535)')
  .max(65535, 'must be a port number (1-65535)');

const intIn = (min: number, max: number) =>
  z.coerce
    .number({ error: `must be a whole number from ${min} to ${max}` })
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be a whole number from ${min} to ${max}`)
    .max(max, `must be a whole number from ${min} to ${max}`);

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .refine(
    (value) => !new URL(value).search && !new URL(value).hash,
    'must not carry a query or fragment',
  )
  .refine(
    (value) => !new URL(value).username && !new URL(value).password,
    'must not carry credentials (use OAUTH_CLIENT_ID / OAUTH_CLIENT_SECRET)',
  );

const optionalNonEmpty = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.string().min(1).optional(),
);

const EnvSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(8787),
  UPSTREAM_BASE_URL: z.preprocess((v) => (v === '' ? undefined : v), httpUrl.optional()),
  OAUTH_CLIENT_ID: optionalNonEmpty,
  OAUTH_CLIENT_SECRET: optionalNonEmpty,
  OAUTH_TOKEN_URL: z.preprocess((v) => (v === '' ? undefined : v), httpUrl.optional()),
  OAUTH_SCOPE: z
    .string()
    .regex(
      /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/,
      'must be space-separated scope names',
    )
    .default('ACTIVITY_LOG'),
  // How the client authenticates at the token endpoint: the upstream does not show it. `body`
  // (client_id/client_secret form fields) matches the vendor's examples; `basic` is RFC 6749's
  // HTTP Basic scheme.
  OAUTH_CLIENT_AUTH: z
    .enum(['body', 'basic'], { error: 'must be "body" or "basic"' })
    .default('body'),
  // Token lifetime is not shown upstream: when a token answer has no expires_in we assume this.
  OAUTH_DEFAULT_TOKEN_TTL_SECONDS: intIn(30, 86_400).default(300),
  ACCOUNT_TIER: z
    .enum(['production', 'sandbox'], { error: 'must be "production" or "sandbox"' })
    .default('production'),
  ARRAY_QUERY_STYLE: z
    .enum(['repeat', 'comma'], { error: 'must be "repeat" or "comma"' })
    .default('repeat'),
  UPSTREAM_TIMEOUT_MS: intIn(100, 120_000).default(10_000),
  EVENT_TYPES_CACHE_SECONDS: intIn(0, 3_600).default(30),
  DATA_DIR: z.string().min(1).default('./.data'),
  STATIC_DIR: z.string().min(1).default('./dist/client'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  MOCK_EVENT_TYPES: intIn(0, 100_000).optional(),
});

type Env = z.infer<typeof EnvSchema>;

/** The BFF's configuration, derived once at start. */
export interface Config {
  host: string;
  port: number;
  /** `demo`: the built-in mock is the upstream; `live`: UPSTREAM_BASE_URL is. */
  mode: 'demo' | 'live';
  upstream: {
    /** Unset in demo mode until the mock has started and told us its address. */
    baseUrl: string | undefined;
    timeoutMs: number;
    arrayQueryStyle: 'repeat' | 'comma';
    accountTier: 'production' | 'sandbox';
  };
  oauth: {
    clientId: string;
    clientSecret: string;
    /** Unset means `{baseUrl}/api/access/v1/oauth/token`. */
    tokenUrl: string | undefined;
    scope: string;
    clientAuth: 'body' | 'basic';
    defaultTokenTtlSeconds: number;
  };
  eventTypesCacheSeconds: number;
  dataDir: string;
  staticDir: string;
  logLevel: Env['LOG_LEVEL'];
  demo: { eventTypes: number | undefined };
}

/** Thrown with the one line to print when the environment is unusable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Validates `env` and derives the configuration; throws ConfigError naming the variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    const value = env[variable];
    const shown = value === undefined || /SECRET/.test(variable) ? '' : ` (got "${value}")`;
    throw new ConfigError(`${variable} ${issue?.message ?? 'is invalid'}${shown}`);
  }
  const e = parsed.data;
  const mode = e.UPSTREAM_BASE_URL ? 'live' : 'demo';
  if (mode === 'live') {
    for (const name of ['OAUTH_CLIENT_ID', 'OAUTH_CLIENT_SECRET'] as const) {
      if (!e[name]) throw new ConfigError(`${name} is required when UPSTREAM_BASE_URL is set`);
    }
  }
  return {
    host: e.HOST,
    port: e.PORT,
    mode,
    upstream: {
      baseUrl: e.UPSTREAM_BASE_URL?.replace(/\/+$/, ''),
      timeoutMs: e.UPSTREAM_TIMEOUT_MS,
      arrayQueryStyle: e.ARRAY_QUERY_STYLE,
      accountTier: e.ACCOUNT_TIER,
    },
    oauth: {
      clientId: e.OAUTH_CLIENT_ID ?? DEMO_CLIENT_CREDENTIALS.clientId,
      clientSecret: e.OAUTH_CLIENT_SECRET ?? DEMO_CLIENT_CREDENTIALS.clientSecret,
      tokenUrl: e.OAUTH_TOKEN_URL,
      scope: e.OAUTH_SCOPE,
      clientAuth: e.OAUTH_CLIENT_AUTH,
      defaultTokenTtlSeconds: e.OAUTH_DEFAULT_TOKEN_TTL_SECONDS,
    },
    eventTypesCacheSeconds: e.EVENT_TYPES_CACHE_SECONDS,
    dataDir: e.DATA_DIR,
    staticDir: e.STATIC_DIR,
    logLevel: e.LOG_LEVEL,
    demo: { eventTypes: e.MOCK_EVENT_TYPES },
  };
}

/** Reads `.env` (when present, without overriding the real environment) and process.env. */
export function loadConfig(): Config {
  if (existsSync('.env')) process.loadEnvFile('.env');
  return parseConfig(process.env);
}
