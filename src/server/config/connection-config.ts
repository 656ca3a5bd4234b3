// The settings of one platform connection, as the console's areas read them: where the platform
// is, how the console gets a token there, which limits it keeps. Both sources (the old variables
// and CONNECTIONS_FILE) produce these; config.ts holds one set per connection.
import type { ConnectionColour } from '../../shared/connections';

/** Where a connection's platform is and how it is talked to. */
export interface UpstreamSettings {
  /** Unset in demo mode until the mock has started and told us its address. */
  baseUrl: string | undefined;
  timeoutMs: number;
  /** Largest answer read, in bytes, unless the operation has its own limit. */
  maxAnswerBytes: number;
  /** Per-operation answer limits, by operation id. */
  maxAnswerBytesByOperation: Record<string, number>;
  arrayQueryStyle: 'repeat' | 'comma';
  accountTier: 'production' | 'sandbox';
}

/** How the console gets a token from a connection's platform. */
export interface OAuthSettings {
  clientId: string;
  clientSecret: string;
  /** Unset means `{baseUrl}/api/access/v1/oauth/token`. */
  tokenUrl: string | undefined;
  /** Unset: no `scope` field is sent (the vendor's token document has none). */
  scope: string | undefined;
  clientAuth: 'body' | 'basic';
  /** How the token request's form is encoded first (docs/platform-contract.md). */
  tokenEncoding: 'multipart' | 'form';
  defaultTokenTtlSeconds: number;
}

/** Which published limits the governor keeps for a connection. */
export interface RateLimitSettings {
  /** The published rate-limit page the governor keeps (RATE_LIMIT_POLICY). */
  policy: 'account-and-module' | 'per-endpoint';
  /** The per-endpoint minute limit instead of the published 1,000 (ENDPOINT_MINUTE_LIMIT). */
  endpointMinuteLimit: number | undefined;
  keepSoftLimits: boolean;
  /** Vendor-granted account limits; an unset period keeps the tier's limit. */
  accountOverride: { MINUTE?: number; HOUR?: number };
}

/** One platform account the console connects to (docs/operations.md, "Several connections"). */
export interface ConnectionConfig {
  /** In URLs, Redis keys and every record (CONNECTION_NAME_PATTERN). */
  name: string;
  /** Shown in the header and the switcher, e.g. "Production (EU)". */
  label: string;
  colour: ConnectionColour;
  /** Readiness fails while a required connection's platform or credential is down. */
  required: boolean;
  upstream: UpstreamSettings;
  oauth: OAuthSettings;
  rateLimits: RateLimitSettings;
}
