// One platform connection's settings (host, credential, token request, tier, limits, wire style,
// bounds), as the single-connection variables give them or as an entry of CONNECTIONS_FILE does:
// each setting's check, default and variable written once for both.
import { z } from 'zod';
import type { ConnectionConfig } from './connection-config';
import { httpUrl, intIn, optionalNonEmpty, scopeNames, unsetIfEmpty } from './config-values';
import { ACCOUNT_TIERS } from '../../shared/rate-limits';

/**
 * Each connection setting's variable, for a console configured the old way (one connection,
 * `default`). CONNECTIONS_FILE names the same settings by these keys; either source, never both.
 */
export const CONNECTION_VARIABLES = {
  baseUrl: 'UPSTREAM_BASE_URL',
  clientId: 'OAUTH_CLIENT_ID',
  clientSecret: 'OAUTH_CLIENT_SECRET',
  tokenUrl: 'OAUTH_TOKEN_URL',
  scope: 'OAUTH_SCOPE',
  clientAuth: 'OAUTH_CLIENT_AUTH',
  tokenEncoding: 'OAUTH_TOKEN_ENCODING',
  defaultTokenTtlSeconds: 'OAUTH_DEFAULT_TOKEN_TTL_SECONDS',
  tier: 'ACCOUNT_TIER',
  policy: 'RATE_LIMIT_POLICY',
  endpointMinuteLimit: 'ENDPOINT_MINUTE_LIMIT',
  accountMinuteLimit: 'ACCOUNT_MINUTE_LIMIT',
  accountHourLimit: 'ACCOUNT_HOUR_LIMIT',
  softLimits: 'RATE_LIMIT_SOFT_LIMITS',
  arrayStyle: 'ARRAY_QUERY_STYLE',
  timeoutMs: 'UPSTREAM_TIMEOUT_MS',
  maxAnswerBytes: 'UPSTREAM_MAX_ANSWER_BYTES',
  maxAnswerBytesByOperation: 'UPSTREAM_MAX_ANSWER_BYTES_BY_OPERATION',
} as const;

/** A connection setting's key (CONNECTIONS_FILE's field name). */
export type ConnectionSetting = keyof typeof CONNECTION_VARIABLES;

/** Where connection settings were given: the single-connection variables, or CONNECTIONS_FILE. */
export type SettingsSource = 'variables' | 'file';

/** How a message names one connection's settings, for the administrator to find them. */
export interface SettingNames {
  /**
   * `settings` together: "OAUTH_CLIENT_ID and OAUTH_CLIENT_SECRET", or "the clientId and
   * clientSecret of connection "uat" in CONNECTIONS_FILE".
   */
  readonly of: (...settings: ConnectionSetting[]) => string;
  /** One setting's bare name, for a default written in terms of it: `{UPSTREAM_BASE_URL}`. */
  readonly bare: (setting: ConnectionSetting) => string;
}

const both = (names: readonly string[]) =>
  names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/** The names of `connection`'s settings as the administrator gave them (`from`). */
export function settingNames(connection: string, from: SettingsSource): SettingNames {
  if (from === 'variables') {
    return {
      of: (...settings) => both(settings.map((setting) => CONNECTION_VARIABLES[setting])),
      bare: (setting) => CONNECTION_VARIABLES[setting],
    };
  }
  return {
    of: (...settings) => `the ${both(settings)} of connection "${connection}" in CONNECTIONS_FILE`,
    bare: (setting) => setting,
  };
}

/** The names of a console configured the old way: the variables. */
export const VARIABLE_NAMES: SettingNames = settingNames('default', 'variables');

/** The most an answer limit may be: what npm start's heap can parse safely (docs/operations.md). */
const MAX_ANSWER_CEILING = 32 * 1024 * 1024;
const MIN_ANSWER_BYTES = 64 * 1024;

/** A variable's `operation-id=bytes` pairs, e.g. `event-types=33554432, get-data-subject=1048576`. */
const OPERATION_BYTES_PAIRS = /^\s*$|^[\w.-]+=\d+(\s*,\s*[\w.-]+=\d+)*$/;

/**
 * Per-operation answer limits: the variable's pairs, or the file's object of operation ids and
 * bytes; each within the same bounds as the overall limit.
 */
const answerLimitsByOperation = z.preprocess(
  (value, context) => {
    if (typeof value !== 'string') return value;
    if (!OPERATION_BYTES_PAIRS.test(value)) {
      context.addIssue({
        code: 'custom',
        message: 'must be operation=bytes pairs separated by commas',
        input: value,
      });
      return value;
    }
    return Object.fromEntries(
      value
        .split(',')
        .map((pair) => pair.split('=').map((part) => part.trim()))
        .filter(([name, bytes]) => name && bytes),
    );
  },
  z.record(
    z.string().regex(/^[\w.-]+$/, 'must be an operation id'),
    intIn(
      MIN_ANSWER_BYTES,
      MAX_ANSWER_CEILING,
      `must be from ${MIN_ANSWER_BYTES} to ${MAX_ANSWER_CEILING} bytes`,
    ),
    { error: 'must give operation ids their largest answer in bytes' },
  ),
);

/**
 * One connection's settings with their defaults. As variables every value is text and an empty one
 * counts as unset; in the file numbers are JSON numbers. Required-ness differs (the variables
 * without a base URL are demo mode): each source adds its own.
 */
export const ConnectionSettingsSchema = z.object({
  baseUrl: unsetIfEmpty(httpUrl.optional()),
  clientId: optionalNonEmpty,
  clientSecret: optionalNonEmpty,
  /** Unset: `{baseUrl}/api/access/v1/oauth/token`. */
  tokenUrl: unsetIfEmpty(httpUrl.optional()),
  /** Unset: no `scope` field is sent (the vendor's token document has none). */
  scope: scopeNames.optional(),
  // How the client authenticates at the token endpoint: the upstream does not show it. `body`
  // (client_id/client_secret form fields) matches the vendor's examples; `basic` is RFC 6749's
  // HTTP Basic scheme.
  clientAuth: z.enum(['body', 'basic'], { error: 'must be "body" or "basic"' }).default('body'),
  // How the token request's form is encoded: `multipart` (multipart/form-data) as the vendor's
  // OAuth token document declares, or `form` (application/x-www-form-urlencoded) as RFC 6749
  // requires of standard servers. A 415 makes the console try the other once (token-manager.ts).
  tokenEncoding: z
    .enum(['multipart', 'form'], { error: 'must be "multipart" or "form"' })
    .default('multipart'),
  // Token lifetime is not shown upstream: when a token answer has no expires_in we assume this.
  defaultTokenTtlSeconds: intIn(30, 86_400).default(300),
  tier: z.enum(ACCOUNT_TIERS, { error: 'must be "production" or "sandbox"' }).default('production'),
  // Which published version of the platform's rate-limit page the governor keeps
  // (docs/rate-limits.md): the account-and-module page stays the default.
  policy: z
    .enum(['account-and-module', 'per-endpoint'], {
      error: 'must be "account-and-module" or "per-endpoint"',
    })
    .default('account-and-module'),
  // The per-endpoint policy's default of 1,000 requests a minute per endpoint, when the vendor
  // changed it for this account.
  endpointMinuteLimit: intIn(1, 1_000_000_000).optional(),
  // A temporary account-level override granted by the vendor (docs/rate-limit-model.md): the
  // account's minute and hour limits instead of the tier's.
  accountMinuteLimit: intIn(1, 1_000_000_000).optional(),
  accountHourLimit: intIn(1, 1_000_000_000).optional(),
  // Whether the governor also keeps the soft limits of docs/rate-limit-model.md ("service
  // objectives not met"); going over them slows the upstream down for the whole account.
  softLimits: z.enum(['keep', 'ignore'], { error: 'must be "keep" or "ignore"' }).default('keep'),
  arrayStyle: z
    .enum(['repeat', 'comma'], { error: 'must be "repeat" or "comma"' })
    .default('repeat'),
  timeoutMs: intIn(100, 120_000).default(10_000),
  // The largest upstream answer read, in bytes; larger ones are refused with a 502 naming the
  // limit. The heap npm start gives the process is sized so an answer of the largest allowed size
  // is parsed and served without exhausting it (docs/operations.md).
  maxAnswerBytes: intIn(MIN_ANSWER_BYTES, MAX_ANSWER_CEILING).default(16 * 1024 * 1024),
  maxAnswerBytesByOperation: answerLimitsByOperation.default({}),
});

/** One connection's settings, checked and with their defaults. */
export type ConnectionSettings = z.infer<typeof ConnectionSettingsSchema>;

/** A setting that contradicts another, with the message to show (it starts with its name). */
export interface SettingConflict {
  readonly setting: ConnectionSetting;
  readonly message: string;
}

/**
 * The settings that make no sense together, each named as `nameOf` names settings (the variable,
 * or the file's field). Two rate-limit overrides belong to one policy only: set under the other
 * they would be silently ignored, and the operator would believe a limit that is not kept.
 */
export function conflictingSettings(
  settings: ConnectionSettings,
  nameOf: (setting: ConnectionSetting) => string,
): SettingConflict[] {
  const conflicts: SettingConflict[] = [];
  const perEndpoint = `${nameOf('policy')}=per-endpoint`;
  if (settings.policy === 'per-endpoint' && settings.accountMinuteLimit !== undefined) {
    conflicts.push({
      setting: 'accountMinuteLimit',
      message: `${nameOf('accountMinuteLimit')} has no effect with ${perEndpoint} (that policy has no account minute limit; set ${nameOf('endpointMinuteLimit')} for the per-endpoint minute limit)`,
    });
  }
  if (settings.policy !== 'per-endpoint' && settings.endpointMinuteLimit !== undefined) {
    conflicts.push({
      setting: 'endpointMinuteLimit',
      message: `${nameOf('endpointMinuteLimit')} applies only with ${perEndpoint}`,
    });
  }
  return conflicts;
}

/** The parts of a connection the areas read: its upstream, its token request and its limits. */
export type ConnectionParts = Pick<ConnectionConfig, 'upstream' | 'oauth' | 'rateLimits'>;

/** A connection's settings as the areas read them, with the credential it signs in with. */
export function connectionParts(
  settings: ConnectionSettings,
  credential: { readonly clientId: string; readonly clientSecret: string },
): ConnectionParts {
  return {
    upstream: {
      baseUrl: settings.baseUrl?.replace(/\/+$/, ''),
      timeoutMs: settings.timeoutMs,
      maxAnswerBytes: settings.maxAnswerBytes,
      maxAnswerBytesByOperation: settings.maxAnswerBytesByOperation,
      arrayQueryStyle: settings.arrayStyle,
      accountTier: settings.tier,
    },
    oauth: {
      clientId: credential.clientId,
      clientSecret: credential.clientSecret,
      tokenUrl: settings.tokenUrl,
      scope: settings.scope,
      clientAuth: settings.clientAuth,
      tokenEncoding: settings.tokenEncoding,
      defaultTokenTtlSeconds: settings.defaultTokenTtlSeconds,
    },
    rateLimits: {
      policy: settings.policy,
      endpointMinuteLimit: settings.endpointMinuteLimit,
      keepSoftLimits: settings.softLimits === 'keep',
      accountOverride: {
        ...(settings.accountMinuteLimit === undefined
          ? {}
          : { MINUTE: settings.accountMinuteLimit }),
        ...(settings.accountHourLimit === undefined ? {} : { HOUR: settings.accountHourLimit }),
      },
    },
  };
}
