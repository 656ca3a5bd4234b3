// Environment -> validated configuration. The one place in the BFF that reads process.env; a
// missing or bad value stops start with one line naming the variable and what is expected.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { parseRedisTarget, RedisUrlError } from '../redis/redis-target';
import {
  DEFAULT_PURPOSE_CATEGORIES,
  PURPOSE_CATEGORY_MAX_LENGTH,
  PURPOSE_MODES,
  type PurposeMode,
} from '../../shared/lookup-purpose';
import { RoleSchema, type Role } from '../../shared/session';
import { CONNECTION_NAME_PATTERN, DEFAULT_CONNECTION } from '../../shared/connections';
import { readSecretFiles, SecretFileError } from '../security/secret-files';
import { tracingRequested } from '../observability/tracing';
import {
  gotValue,
  httpUrl,
  intIn,
  optionalNonEmpty,
  plainText,
  scopeNames,
  unsetIfEmpty,
  urlOf,
} from './config-values';
import {
  CONNECTION_VARIABLES,
  conflictingSettings,
  connectionParts,
  ConnectionSettingsSchema,
  type ConnectionSetting,
  type SettingsSource,
} from './connection-settings';
import type {
  ConnectionConfig,
  OAuthSettings,
  RateLimitSettings,
  UpstreamSettings,
} from './connection-config';
import { ConnectionsFileError, readConnectionsFile } from './connections-file';
import { demoConnections } from './demo-connections';

/** DATA_DIR when it is not set: `.data` in the working directory (the operator commands too). */
export const DEFAULT_DATA_DIR = './.data';

/** Client id and secret of the built-in mock; they exist in demo mode only. */
export const DEMO_CLIENT_CREDENTIALS = { clientId: 'demo-client', clientSecret: 'demo-secret' };

const port = z.coerce
  .number({ error: 'must be a port number (1-65535)' })
  .int('must be a port number (1-65535)')
  .min(1, 'must be a port number (1-65535)')
  .max(65535, 'must be a port number (1-65535)');

const EnvSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(8787),
  // Several platform connections in one JSON file (connections-file.ts); without it the
  // connection variables (connection-settings.ts) make the one connection `default`.
  CONNECTIONS_FILE: optionalNonEmpty,
  // How long 429 incidents are kept (the audit trail has its own, longer retention).
  INCIDENT_RETENTION_DAYS: intIn(1, 3_650).default(90),
  EVENT_TYPES_CACHE_SECONDS: intIn(0, 3_600).default(30),
  DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR),
  STATIC_DIR: z.string().min(1).default('./dist/client'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  MOCK_EVENT_TYPES: intIn(0, 100_000).optional(),
  // Demo mode: requests per minute simulated other clients of the account make (shared quota).
  // Default 600: enough for the demo's simulated integrations to show on the rate-limits page,
  // far below every account limit of either tier (600 × 60 = 36,000 an hour < 50,000).
  MOCK_BACKGROUND_RPM: intIn(0, 1_000_000).default(600),
  // The account-wide view (docs/account-wide-view.md): how long per-minute aggregates of the
  // integrations' reports are kept, how many reports a minute one key may send, and after how
  // long without a report an integration is flagged stale.
  INTEGRATION_RETENTION_DAYS: intIn(1, 90).default(7),
  INTEGRATION_INGEST_PER_MINUTE: intIn(1, 10_000).default(120),
  INTEGRATION_FAILED_KEYS_PER_MINUTE: intIn(1, 10_000).default(20),
  INTEGRATION_FAILED_KEY_HOLD_MS: intIn(0, 10_000).default(1_000),
  INTEGRATION_STALE_SECONDS: intIn(10, 86_400).default(120),
  // What-if replays one replica runs at once (docs/planning.md, "Replays share the console"):
  // each takes a core's worth of work for as long as it runs, so on a small machine two leave the
  // rest for requests; more are refused with 429 until one ends.
  REPLAY_CONCURRENCY: intIn(1, 16).default(2),
  // Console sign-in (docs/product.md §4). The users file and the secret are required in live mode.
  CONSOLE_USERS_FILE: optionalNonEmpty,
  SESSION_SECRET: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  SESSION_IDLE_MINUTES: intIn(1, 10_080).default(480),
  SESSION_MAX_HOURS: intIn(1, 720).default(12),
  DEMO_PASSWORD: z.string().min(1, 'must not be empty').max(1024).default('demo'),
  // Where browsers reach the console, when a proxy in front changes it (https → Secure cookies).
  PUBLIC_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    httpUrl
      .refine((value) => urlOf(value)?.pathname === '/', 'must be an origin without a path')
      .optional(),
  ),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'], { error: 'must be "true" or "false"' })
    .default('false'),
  // Single sign-on through the organisation's OpenID provider (docs/identity.md); setting
  // OIDC_ISSUER turns it on. The issuer is checked for https below, where loopback is known.
  OIDC_ISSUER: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
      .refine(
        (value) => !urlOf(value)?.search && !urlOf(value)?.hash,
        'must not carry a query or fragment',
      )
      .optional(),
  ),
  OIDC_CLIENT_ID: optionalNonEmpty,
  OIDC_CLIENT_SECRET: optionalNonEmpty,
  // `basic` (client_secret_basic) is OpenID Connect's default; `post` sends form fields.
  OIDC_CLIENT_AUTH: z
    .enum(['basic', 'post'], { error: 'must be "basic" or "post"' })
    .default('basic'),
  OIDC_SCOPES: scopeNames
    .refine((value) => value.split(' ').includes('openid'), 'must include openid')
    .default('openid profile email'),
  OIDC_DISPLAY_NAME: unsetIfEmpty(plainText(60).optional()),
  OIDC_ROLES_CLAIM: z
    .string()
    .regex(
      /^[\w:/-]+(\.[\w:/-]+)*$/,
      'must be a claim name or a dotted path such as realm_access.roles',
    )
    .default('groups'),
  OIDC_ROLE_MAP: optionalNonEmpty,
  // Whom the no-access page tells people to ask, e.g. "the privacy team (privacy@example.com)".
  OIDC_ACCESS_CONTACT: unsetIfEmpty(plainText(200).optional()),
  OIDC_REQUIRE_MFA: z
    .enum(['true', 'false', '1', '0'], { error: 'must be "true" or "false"' })
    .default('false'),
  OIDC_ACR_VALUES: z
    .string()
    .regex(/^\s*$|^[\x21-\x7e]+( [\x21-\x7e]+)*$/, 'must be space-separated acr values')
    .optional(),
  // Minutes after a provider sign-in beyond which a data-subject lookup first sends the person
  // back through the provider; off by default.
  PERSONAL_DATA_MAX_AUTH_AGE_MINUTES: intIn(1, 10_080).optional(),
  // `off` leaves single sign-on as the only way in (no users file, no password form).
  LOCAL_SIGN_IN: z.enum(['on', 'off'], { error: 'must be "on" or "off"' }).default('on'),
  // Scale-out (README "Running at scale"): replicas share one PostgreSQL and one Redis.
  DATABASE_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
      .optional(),
  ),
  // One server (redis://, rediss://) or a Redis Cluster's seed nodes
  // (redis+cluster://host1:6379,host2:6379, or a redis:// URL with REDIS_CLUSTER=true); checked
  // by redis/redis-target.ts below, the same reader the connection uses.
  REDIS_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  REDIS_CLUSTER: z
    .enum(['true', 'false', '1', '0'], { error: 'must be "true" or "false"' })
    .default('false'),
  REPLICAS: intIn(1, 1_000).default(1),
  // Bearer token a Prometheus scraper sends for GET /metrics; without it only loopback may read.
  METRICS_TOKEN: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  // Data subjects (docs/product.md §6): the key of the identifier HMAC in the lookup audit trail
  // (required in live mode; demo mode keeps a generated one under DATA_DIR), and a JSON file of
  // overrides of the operations catalog's paths and parameter locations.
  AUDIT_KEY: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  DATA_SUBJECT_OPERATIONS_FILE: optionalNonEmpty,
  // Alerts (docs/alerts.md): outbound calls to destinations an admin chose. Private, loopback and
  // link-local addresses are refused unless explicitly allowed (an internal receiver).
  ALERT_ALLOW_PRIVATE: z
    .enum(['true', 'false', '1', '0'], { error: 'must be "true" or "false"' })
    .default('false'),
  ALERT_TIMEOUT_MS: intIn(500, 60_000).default(5_000),
  ALERT_MAX_ATTEMPTS: intIn(1, 20).default(6),
  // Hours after which a limit that stays past its threshold is alerted again; 0: once per episode.
  ALERT_REPEAT_HOURS: intIn(0, 168).default(0),
  // The audit trail: how long its records are kept (a daily job deletes older ones), and the
  // largest export in records.
  AUDIT_RETENTION_DAYS: intIn(1, 36_500).default(730),
  AUDIT_EXPORT_MAX_RECORDS: intIn(1, 10_000_000).default(100_000),
  // Signed checkpoints of the audit chain's head (docs/audit-trail.md): how often, and a
  // directory outside the database to append them to (write-once or separately permissioned).
  AUDIT_CHECKPOINT_MINUTES: intIn(1, 1_440).default(5),
  AUDIT_CHECKPOINT_DIR: optionalNonEmpty,
  // Why each person is looked up (docs/audit-trail.md): whether a lookup must state a purpose,
  // and the categories offered, comma-separated (the default list when unset). `required` by
  // default: accountability asks that every access to personal data has a stated reason, and the
  // data-subjects page's purpose bar states it once per investigation.
  LOOKUP_PURPOSE: z
    .enum(PURPOSE_MODES, { error: 'must be "required", "optional" or "off"' })
    .default('required'),
  LOOKUP_PURPOSE_CATEGORIES: z
    .string()
    .optional()
    .transform((text) => purposeCategories(text))
    .pipe(
      z
        .array(z.string().max(PURPOSE_CATEGORY_MAX_LENGTH, 'names a category over 64 characters'))
        .min(1, 'must name at least one category'),
    ),
});

/** The configured categories: trimmed, empty ones and repeats dropped; the default list when unset. */
function purposeCategories(text: string | undefined): string[] {
  if (text === undefined || text.trim() === '') return [...DEFAULT_PURPOSE_CATEGORIES];
  return [
    ...new Set(
      text
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    ),
  ];
}

type Env = z.infer<typeof EnvSchema>;

/** The BFF's configuration, derived once at start. */
export interface Config {
  host: string;
  port: number;
  /** `demo`: the built-in mocks are the upstreams; `live`: UPSTREAM_BASE_URL or CONNECTIONS_FILE. */
  mode: 'demo' | 'live';
  upstream: UpstreamSettings;
  oauth: OAuthSettings;
  eventTypesCacheSeconds: number;
  /** Days a 429 incident is kept before it is deleted. */
  incidentRetentionDays: number;
  dataDir: string;
  staticDir: string;
  logLevel: Env['LOG_LEVEL'];
  demo: { eventTypes: number | undefined; backgroundRpm: number };
  rateLimits: RateLimitSettings;
  auth: {
    /** Live mode's users file; unset in demo mode, where the demo users exist instead. */
    usersFile: string | undefined;
    /** Signs session cookies; random per start when not configured (demo mode). */
    sessionSecret: string;
    /**
     * SESSION_SECRET is unset (demo mode): the process entry replaces the random secret with one
     * kept under DATA_DIR, so sessions survive a restart.
     */
    sessionSecretGenerated: boolean;
    sessionIdleMinutes: number;
    sessionMaxHours: number;
    /** Password of the demo users (demo mode only). */
    demoPassword: string;
    /** Whether local users may sign in with a password (LOCAL_SIGN_IN). */
    localSignIn: boolean;
  };
  /** Single sign-on through an OpenID provider; unset without OIDC_ISSUER (docs/identity.md). */
  identity: IdentityConfig | undefined;
  web: {
    /** PUBLIC_URL's origin, e.g. `https://console.example.com`. */
    publicOrigin: string | undefined;
    /** Believe X-Forwarded-* headers from the proxy in front (TRUST_PROXY). */
    trustProxy: boolean;
  };
  scaleOut: {
    /** PostgreSQL instead of the embedded store (DATABASE_URL). */
    databaseUrl: string | undefined;
    /** Shared governor windows, blocks and sessions (REDIS_URL): a server or a cluster's seeds. */
    redisUrl: string | undefined;
    /** REDIS_URL names a Redis Cluster (REDIS_CLUSTER, or a redis+cluster:// URL). */
    redisCluster: boolean;
    /** Replicas sharing the account: without Redis each keeps limit ÷ replicas (REPLICAS). */
    replicas: number;
  };
  dataSubjects: {
    /** Key of the audit trail's identifier HMAC (AUDIT_KEY); unset in demo mode means the key file. */
    auditKey: string | undefined;
    /** Overrides of the operations catalog (DATA_SUBJECT_OPERATIONS_FILE). */
    operationsFile: string | undefined;
    /** Audit records are deleted after this many days (AUDIT_RETENTION_DAYS). */
    auditRetentionDays: number;
    /** Largest audit export, in records (AUDIT_EXPORT_MAX_RECORDS). */
    auditExportMaxRecords: number;
    /** Minutes between signed checkpoints of the chain's head (AUDIT_CHECKPOINT_MINUTES). */
    auditCheckpointMinutes: number;
    /** Where checkpoints are also appended, outside the database (AUDIT_CHECKPOINT_DIR). */
    auditCheckpointDir: string | undefined;
    /** Whether a lookup must state why (LOOKUP_PURPOSE). */
    purposeMode: PurposeMode;
    /** The purpose categories offered (LOOKUP_PURPOSE_CATEGORIES). */
    purposeCategories: readonly string[];
  };
  metrics: {
    /** Bearer token for GET /metrics (METRICS_TOKEN); unset = loopback only. */
    token: string | undefined;
  };
  /** The account-wide view (INTEGRATION_* variables; docs/account-wide-view.md). */
  integrations: {
    retentionDays: number;
    ingestPerMinute: number;
    /** Wrong keys a minute one client address may send before its reports are refused early. */
    failedKeysPerMinute: number;
    /** How long such an early refusal is held before it is sent (0: at once). */
    failedKeyHoldMs: number;
    staleAfterSeconds: number;
  };
  /** What-if replays (docs/planning.md). */
  planning: {
    /** Replays one replica runs at once (REPLAY_CONCURRENCY); more are refused with 429. */
    replayConcurrency: number;
  };
  /**
   * The platform connections, in the order the switcher lists them; never empty. Configured the
   * old way (UPSTREAM_BASE_URL, OAUTH_*, …) there is one, `default`. `upstream`, `oauth` and
   * `rateLimits` above are the first one's settings (connection-stack.ts gives each connection's
   * areas its own in their place).
   */
  connections: readonly ConnectionConfig[];
  /** Where the connections' settings were given: what messages tell an administrator to check. */
  connectionsFrom: SettingsSource;
  alerts: {
    /** Allow alert destinations on private, loopback and link-local addresses. */
    allowPrivate: boolean;
    /** Deadline of one delivery attempt. */
    timeoutMs: number;
    /** Attempts per alert before it is dead-lettered. */
    maxAttempts: number;
    /** A limit condition that keeps firing is alerted again after this long; null: never. */
    repeatMs: number | null;
  };
}

/** The OpenID Connect relying party's settings (OIDC_* variables). */
export interface IdentityConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  clientAuth: 'basic' | 'post';
  scopes: string;
  /** "Sign in with <displayName>": OIDC_DISPLAY_NAME, else the issuer's host. */
  displayName: string;
  /** Where the roles are in the ID token's claims, as path segments (`realm_access.roles`). */
  rolesClaim: readonly string[];
  roleMap: RoleMap;
  /** Whom the no-access page says to ask (OIDC_ACCESS_CONTACT). */
  accessContact: string;
  /** Refuse a sign-in whose ID token shows no second factor (amr, or acr in acrValues). */
  requireMfa: boolean;
  /** Sent as acr_values, and accepted as proof of a second factor; empty when unset. */
  acrValues: readonly string[];
  /** A lookup needs a provider sign-in at most this old (seconds); unset: no step-up. */
  personalDataMaxAuthAgeSeconds: number | undefined;
  /** PUBLIC_URL + /auth/callback. */
  redirectUri: string;
}

/**
 * Thrown with the line to print when the environment is unusable: one line, or one per problem of
 * CONNECTIONS_FILE (each printed on its own).
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Validates `env` and derives the configuration; throws ConfigError naming the variable (for
 * CONNECTIONS_FILE, every problem, one line each). Each warning about a file goes to `warn`.
 */
export function parseConfig(
  env: Record<string, string | undefined>,
  warn: (warning: string) => void = () => {},
): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(variableIssue(parsed.error.issues[0], env));
  const e = parsed.data;
  const connections = e.CONNECTIONS_FILE
    ? fileConnections(e.CONNECTIONS_FILE, env, warn)
    : variableConnections(env);
  const first = connections[0]!;
  const mode = first.upstream.baseUrl === undefined ? 'demo' : 'live';
  if (mode === 'live') {
    const liveBy = e.CONNECTIONS_FILE ? 'CONNECTIONS_FILE' : 'UPSTREAM_BASE_URL';
    if (!e.CONSOLE_USERS_FILE && e.LOCAL_SIGN_IN === 'on') {
      throw new ConfigError(
        `CONSOLE_USERS_FILE is required when ${liveBy} is set (create it with: npm run users -- add NAME --role admin)`,
      );
    }
    if (!e.SESSION_SECRET) {
      throw new ConfigError(
        `SESSION_SECRET is required when ${liveBy} is set (at least 32 random characters)`,
      );
    }
    if (!e.AUDIT_KEY) {
      throw new ConfigError(
        `AUDIT_KEY is required when ${liveBy} is set (at least 32 random characters; keep it: lookups hashed with it are found only with it)`,
      );
    }
  }
  const identity = identityConfig(e);
  const redisClusterFlag = e.REDIS_CLUSTER === 'true' || e.REDIS_CLUSTER === '1';
  let redisCluster = false;
  if (e.REDIS_URL) {
    try {
      redisCluster = parseRedisTarget(e.REDIS_URL, redisClusterFlag).kind === 'cluster';
    } catch (error) {
      if (error instanceof RedisUrlError) throw new ConfigError(`REDIS_URL ${error.message}`);
      throw error;
    }
  } else if (redisClusterFlag) {
    throw new ConfigError("REDIS_CLUSTER=true needs REDIS_URL naming the cluster's seed nodes");
  }
  if (e.REDIS_URL && !e.SESSION_SECRET) {
    throw new ConfigError(
      'SESSION_SECRET is required when REDIS_URL is set (every replica must sign session cookies with the same secret)',
    );
  }
  checkRoleMapConnections(identity, connections);
  return {
    host: e.HOST,
    port: e.PORT,
    mode,
    upstream: first.upstream,
    oauth: first.oauth,
    connections,
    connectionsFrom: e.CONNECTIONS_FILE ? 'file' : 'variables',
    eventTypesCacheSeconds: e.EVENT_TYPES_CACHE_SECONDS,
    incidentRetentionDays: e.INCIDENT_RETENTION_DAYS,
    dataDir: e.DATA_DIR,
    staticDir: e.STATIC_DIR,
    logLevel: e.LOG_LEVEL,
    demo: { eventTypes: e.MOCK_EVENT_TYPES, backgroundRpm: e.MOCK_BACKGROUND_RPM },
    rateLimits: first.rateLimits,
    auth: {
      usersFile: mode === 'live' ? e.CONSOLE_USERS_FILE : undefined,
      sessionSecret: e.SESSION_SECRET ?? randomBytes(32).toString('base64url'),
      sessionSecretGenerated: e.SESSION_SECRET === undefined,
      sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
      sessionMaxHours: e.SESSION_MAX_HOURS,
      demoPassword: e.DEMO_PASSWORD,
      localSignIn: e.LOCAL_SIGN_IN === 'on',
    },
    identity,
    web: {
      publicOrigin: e.PUBLIC_URL ? new URL(e.PUBLIC_URL).origin : undefined,
      trustProxy: e.TRUST_PROXY === 'true' || e.TRUST_PROXY === '1',
    },
    scaleOut: {
      databaseUrl: e.DATABASE_URL,
      redisUrl: e.REDIS_URL,
      redisCluster,
      replicas: e.REPLICAS,
    },
    dataSubjects: {
      auditKey: e.AUDIT_KEY,
      operationsFile: e.DATA_SUBJECT_OPERATIONS_FILE,
      auditRetentionDays: e.AUDIT_RETENTION_DAYS,
      auditExportMaxRecords: e.AUDIT_EXPORT_MAX_RECORDS,
      auditCheckpointMinutes: e.AUDIT_CHECKPOINT_MINUTES,
      auditCheckpointDir: e.AUDIT_CHECKPOINT_DIR,
      purposeMode: e.LOOKUP_PURPOSE,
      purposeCategories: e.LOOKUP_PURPOSE_CATEGORIES,
    },
    metrics: { token: e.METRICS_TOKEN },
    integrations: {
      retentionDays: e.INTEGRATION_RETENTION_DAYS,
      ingestPerMinute: e.INTEGRATION_INGEST_PER_MINUTE,
      failedKeysPerMinute: e.INTEGRATION_FAILED_KEYS_PER_MINUTE,
      failedKeyHoldMs: e.INTEGRATION_FAILED_KEY_HOLD_MS,
      staleAfterSeconds: e.INTEGRATION_STALE_SECONDS,
    },
    planning: { replayConcurrency: e.REPLAY_CONCURRENCY },
    alerts: {
      allowPrivate: e.ALERT_ALLOW_PRIVATE === 'true' || e.ALERT_ALLOW_PRIVATE === '1',
      timeoutMs: e.ALERT_TIMEOUT_MS,
      maxAttempts: e.ALERT_MAX_ATTEMPTS,
      repeatMs: e.ALERT_REPEAT_HOURS === 0 ? null : e.ALERT_REPEAT_HOURS * 3_600_000,
    },
  };
}

/**
 * The one line for a variable's first problem. Secrets, and URLs that may carry a password, are
 * never repeated; a problem inside a value (one operation's answer limit) names its part.
 */
function variableIssue(
  issue: z.core.$ZodIssue | undefined,
  env: Record<string, string | undefined>,
  variableOf: (key: string) => string = (key) => key,
): string {
  const variable = variableOf(String(issue?.path[0] ?? 'environment'));
  const message = issue?.message ?? 'is invalid';
  const part = issue?.path.slice(1).map(String).join('.');
  if (part) return `${variable}: ${part} ${message}`;
  const secret = /SECRET|PASSWORD|TOKEN|KEY|DATABASE_URL|REDIS_URL/.test(variable);
  return `${variable} ${message}${secret ? '' : gotValue(env[variable])}`;
}

/**
 * The connection the variables describe (UPSTREAM_BASE_URL, OAUTH_*, …; connection-settings.ts),
 * `default`, as before connections existed; without UPSTREAM_BASE_URL, demo mode's two.
 */
function variableConnections(env: Record<string, string | undefined>): ConnectionConfig[] {
  const variableOf = (key: string) => CONNECTION_VARIABLES[key as ConnectionSetting] ?? key;
  const parsed = ConnectionSettingsSchema.safeParse(
    Object.fromEntries(
      Object.entries(CONNECTION_VARIABLES).map(([setting, variable]) => [setting, env[variable]]),
    ),
  );
  if (!parsed.success) {
    throw new ConfigError(variableIssue(parsed.error.issues[0], env, variableOf));
  }
  const settings = parsed.data;
  if (settings.baseUrl !== undefined) {
    for (const setting of ['clientId', 'clientSecret'] as const) {
      if (!settings[setting]) {
        throw new ConfigError(`${variableOf(setting)} is required when UPSTREAM_BASE_URL is set`);
      }
    }
  }
  const conflict = conflictingSettings(settings, variableOf)[0];
  if (conflict) throw new ConfigError(conflict.message);
  const parts = connectionParts(settings, {
    clientId: settings.clientId ?? DEMO_CLIENT_CREDENTIALS.clientId,
    clientSecret: settings.clientSecret ?? DEMO_CLIENT_CREDENTIALS.clientSecret,
  });
  if (settings.baseUrl === undefined) return demoConnections(parts);
  // Not required: one connection's token outage leaves the replica in rotation, degraded, as it
  // always has (docs/operations.md, "Readiness").
  return [
    { name: DEFAULT_CONNECTION, label: 'Default', colour: 'blue', required: false, ...parts },
  ];
}

/**
 * CONNECTIONS_FILE's connections (connections-file.ts). A connection variable set beside it is
 * refused rather than ignored or merged: which of the two the operator meant is not knowable.
 */
function fileConnections(
  path: string,
  env: Record<string, string | undefined>,
  warn: (warning: string) => void,
): readonly ConnectionConfig[] {
  const beside = Object.values(CONNECTION_VARIABLES).filter(
    (variable) => env[variable] !== undefined && env[variable] !== '',
  );
  const lines =
    beside.length === 0
      ? []
      : [
          `CONNECTIONS_FILE cannot be combined with ${beside.join(', ')}: the file gives every connection's settings; move them into its connections`,
        ];
  try {
    const { connections, warnings } = readConnectionsFile(path);
    warnings.forEach(warn);
    if (lines.length === 0) return connections;
  } catch (error) {
    if (!(error instanceof ConnectionsFileError)) throw error;
    lines.push(...error.lines);
  }
  throw new ConfigError(lines.join('\n'));
}

/**
 * OIDC_ROLE_MAP parsed: each entry's role with the provider groups that grant it, in the map's
 * order; `connections` when the entry grants the role in those connections only (absent: the
 * console-wide role, which also applies in every connection without a grant of its own).
 */
export type RoleMap = readonly {
  readonly role: Role;
  readonly groups: readonly string[];
  readonly connections?: readonly string[];
}[];

/** The syntax, for the error lines. */
const ROLE_MAP_SYNTAX = 'role=group,group;role@connection,connection=group;…';

/**
 * Parses `admin=privacy-admins;admin@uat=uat-admins;support@production,uat=helpdesk`. A role is
 * given once console-wide and at most once per connection, each entry with at least one group;
 * group names are compared exactly (providers treat them as opaque). Connection names are checked
 * against the configured connections by checkRoleMapConnections once those are known.
 */
function parseRoleMap(text: string): RoleMap {
  const map: { role: Role; groups: string[]; connections?: string[] }[] = [];
  for (const entry of text.split(';').map((part) => part.trim())) {
    if (!entry) continue;
    const equals = entry.indexOf('=');
    const [name = '', scope] = entry
      .slice(0, Math.max(equals, 0))
      .split('@')
      .map((part) => part.trim());
    const role = RoleSchema.safeParse(name);
    if (equals <= 0 || !role.success) {
      throw new ConfigError(
        `OIDC_ROLE_MAP must be ${ROLE_MAP_SYNTAX} with roles among ${RoleSchema.options.join(', ')} (got "${equals <= 0 ? entry : name}")`,
      );
    }
    const connections = scope?.split(',').map((connection) => connection.trim());
    const badName = connections?.find((connection) => !CONNECTION_NAME_PATTERN.test(connection));
    if (connections?.length === 0 || badName !== undefined) {
      throw new ConfigError(
        `OIDC_ROLE_MAP must name connections as ${ROLE_MAP_SYNTAX} (got "${badName ?? entry}" in ${role.data}@…)`,
      );
    }
    const given = (known: (typeof map)[number]) =>
      connections === undefined
        ? known.connections === undefined
        : connections.find((connection) => known.connections?.includes(connection));
    const twice = map.find((known) => known.role === role.data && given(known));
    if (twice) {
      const where = connections === undefined ? '' : ` in the connection "${given(twice)}"`;
      throw new ConfigError(`OIDC_ROLE_MAP names ${role.data}${where} twice`);
    }
    const groups = entry
      .slice(equals + 1)
      .split(',')
      .map((group) => group.trim())
      .filter(Boolean);
    if (groups.length === 0) throw new ConfigError(`OIDC_ROLE_MAP gives ${role.data} no group`);
    map.push({ role: role.data, groups, ...(connections ? { connections } : {}) });
  }
  if (map.length === 0) throw new ConfigError('OIDC_ROLE_MAP maps no role');
  return map;
}

/**
 * Refuses an OIDC_ROLE_MAP entry naming a connection that is not configured: a typo would
 * otherwise grant nothing, silently.
 */
function checkRoleMapConnections(
  identity: IdentityConfig | undefined,
  connections: readonly ConnectionConfig[],
): void {
  const names = connections.map((connection) => connection.name);
  for (const entry of identity?.roleMap ?? []) {
    const unknown = entry.connections?.find((name) => !names.includes(name));
    if (unknown !== undefined) {
      throw new ConfigError(
        `OIDC_ROLE_MAP names the connection "${unknown}" (in ${entry.role}@${entry.connections?.join(',')}), which is not configured (configured: ${names.join(', ')})`,
      );
    }
  }
}

/** Host names that reach only this machine: a plain-HTTP issuer is accepted there (tests, demo). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The OIDC_* variables as IdentityConfig, or undefined without OIDC_ISSUER. */
function identityConfig(e: Env): IdentityConfig | undefined {
  if (!e.OIDC_ISSUER) {
    if (e.LOCAL_SIGN_IN === 'off') {
      throw new ConfigError('LOCAL_SIGN_IN=off needs OIDC_ISSUER (nobody could sign in)');
    }
    return undefined;
  }
  const issuer = new URL(e.OIDC_ISSUER);
  // The ID token's keys and the provider's answers travel over this: only https protects them,
  // except on this machine itself.
  if (issuer.protocol === 'http:' && !LOOPBACK_HOSTS.has(issuer.hostname)) {
    throw new ConfigError(
      `OIDC_ISSUER must use https:// unless it is on a loopback address (got "${e.OIDC_ISSUER}")`,
    );
  }
  for (const name of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ROLE_MAP'] as const) {
    if (!e[name]) throw new ConfigError(`${name} is required when OIDC_ISSUER is set`);
  }
  if (!e.PUBLIC_URL) {
    throw new ConfigError(
      'PUBLIC_URL is required when OIDC_ISSUER is set (the provider sends people back to PUBLIC_URL/auth/callback)',
    );
  }
  const roleMap = parseRoleMap(e.OIDC_ROLE_MAP!);
  const minutes = e.PERSONAL_DATA_MAX_AUTH_AGE_MINUTES;
  return {
    // Kept as written: the ID token's `iss` must match it exactly, trailing slash included.
    issuer: e.OIDC_ISSUER,
    clientId: e.OIDC_CLIENT_ID!,
    clientSecret: e.OIDC_CLIENT_SECRET!,
    clientAuth: e.OIDC_CLIENT_AUTH,
    scopes: e.OIDC_SCOPES,
    displayName: e.OIDC_DISPLAY_NAME ?? issuer.host,
    rolesClaim: e.OIDC_ROLES_CLAIM.split('.'),
    roleMap,
    accessContact: e.OIDC_ACCESS_CONTACT ?? 'an administrator of this console',
    requireMfa: e.OIDC_REQUIRE_MFA === 'true' || e.OIDC_REQUIRE_MFA === '1',
    acrValues: (e.OIDC_ACR_VALUES ?? '').split(' ').filter(Boolean),
    personalDataMaxAuthAgeSeconds: minutes === undefined ? undefined : minutes * 60,
    redirectUri: `${new URL(e.PUBLIC_URL).origin}/auth/callback`,
  };
}

/** Where `npm run users` keeps console users: CONSOLE_USERS_FILE, else `./.data/users.json`. */
export function loadUsersFilePath(): string {
  if (existsSync('.env')) process.loadEnvFile('.env');
  return process.env.CONSOLE_USERS_FILE || `${DEFAULT_DATA_DIR}/users.json`;
}

/**
 * The environment with every secret's NAME_FILE read (secret-files.ts), after `.env` (when present,
 * without overriding the real environment); each warning about a secret file goes to `warn`.
 */
export function loadEnvironment(
  warn: (warning: string) => void = () => {},
): Record<string, string | undefined> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    const { env, warnings } = readSecretFiles(process.env);
    warnings.forEach(warn);
    return env;
  } catch (error) {
    if (error instanceof SecretFileError) throw new ConfigError(error.message);
    throw error;
  }
}

/**
 * The standard OTEL_* variables when they ask for traces (observability/tracing.ts), else
 * undefined. Read here with the rest of the environment; the SDK reads its settings from them.
 */
export function loadTracingEnvironment(): Record<string, string | undefined> | undefined {
  if (!tracingRequested(process.env)) return undefined;
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name.startsWith('OTEL_')),
  );
}

/** Validates the environment of loadEnvironment; each secret-file warning goes to `warn`. */
export function loadConfig(warn?: (warning: string) => void): Config {
  return parseConfig(loadEnvironment(warn), warn);
}

/**
 * `npm run alert-receiver`: ALERT_RECEIVER_PORT (default 8790) and ALERT_RECEIVER_SECRET, the
 * destination's signing secret (`whsec_…`), from `.env` or the environment.
 */
export function loadAlertReceiverSettings(): { port: number; secret: string | undefined } {
  const env = loadEnvironment((warning) => console.warn(`Configuration warning: ${warning}`));
  const parsed = z
    .object({
      ALERT_RECEIVER_PORT: port.default(8790),
      ALERT_RECEIVER_SECRET: z.preprocess(
        (value) => (value === '' ? undefined : value),
        z
          .string()
          .regex(/^whsec_[A-Za-z0-9_-]{20,}$/, 'must be the whsec_… secret the console showed')
          .optional(),
      ),
    })
    .safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${String(issue?.path[0])} ${issue?.message ?? 'is invalid'}`);
  }
  return { port: parsed.data.ALERT_RECEIVER_PORT, secret: parsed.data.ALERT_RECEIVER_SECRET };
}
