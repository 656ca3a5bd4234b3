// A BFF wired to a real mock upstream on an ephemeral loopback port, for route tests. The BFF
// itself is exercised through app.request (no port). The upstream client uses undici's request
// API, which MSW cannot intercept in-process, so the same MSW handlers answer over HTTP instead.
import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../redis/redis-connection';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockDemoControls } from '../../mocks/rate-limits/demo-controls';
import {
  createMockRateLimits,
  type MockRateLimits,
  type MockRateLimitsOptions,
} from '../../mocks/rate-limits/mock-rate-limits';
import { startMockUpstreamServer, type MockUpstreamServer } from '../../mocks/server';
import { createMockState, type MockStateOptions } from '../../mocks/state';
import type { RateLimitRule } from '../../shared/rate-limits';
import type { Role } from '../../shared/session';
import type { ProviderFetch } from '../auth/oidc-discovery';
import { hashPassword, type ScryptParams } from '../auth/password-hash';
import { writeUsersFile } from '../auth/users-file';
import { parseConfig, type Config } from '../config/config';
import type { ConnectionConfig } from '../config/connection-config';
import { composeBff } from '../compose';
import { createLogger, type Logger } from '../observability/logger';
import type { ReadinessCheck } from '../observability/readiness';
import type { AreaModule } from '../runtime/area-module';
import type { SqlDatabase } from '../store/database';
import {
  createHttpTransport,
  type TransportRequest,
  type TransportResponse,
} from '../upstream/http-transport';

export interface HarnessOptions {
  env?: Record<string, string>;
  mock?: MockStateOptions;
  staticDir?: string;
  /** The BFF's logger (default silent); logging tests pass one writing to a buffer. */
  logger?: Logger;
  /**
   * Plug the published rate limits into the mock (off by default, so other tests never meet them); the
   * model uses the mock's clock (`mock.now`) and the harness's `moduleRules` unless told otherwise.
   */
  mockRateLimits?: MockRateLimitsOptions | true;
  /** Module rate-limit rules for both the mock and the BFF's governor instead of the published ones. */
  moduleRules?: readonly RateLimitRule[];
  /** The BFF's clock (default Date.now); pass the same one as `mock.now` to move both. */
  now?: () => number;
  /** The incident database (default: the BFF opens an in-memory one on first use). */
  database?: SqlDatabase;
  /** Give the BFF the mock's demo controls, as demo mode does (needs `mockRateLimits`). */
  demoControls?: boolean;
  /** An open Redis connection: the BFF shares limits, blocks and sessions through it. */
  redis?: RedisClient;
  /** Another harness's mock upstream to use instead of starting one (replicas of one console). */
  upstream?: MockUpstreamServer;
  /** Where the last good event-types list is kept across BFFs (default: in memory only). */
  lastGoodEventTypesFile?: string;
  /** Further readiness checks (observability/readiness.ts), as one more area declaring them. */
  readinessChecks?: readonly ReadinessCheck[];
  /** Areas beside the console's own (compose.ts `extraAreas`). */
  areas?: readonly AreaModule[];
  /** Replaces fetch for the BFF's calls to the identity provider (tampered answers). */
  providerFetch?: ProviderFetch;
  /**
   * Platform connections after `default`, each against a mock upstream of its own with its own
   * data (and, with `mockRateLimits`, its own limits): a console serving several accounts.
   */
  otherConnections?: readonly OtherConnection[];
}

/** A further connection of a harness: its name and label, its mock's data, its limits. */
export interface OtherConnection {
  readonly name: string;
  readonly label: string;
  readonly mock?: MockStateOptions;
  /** The tier its mock and governor keep (default production). */
  readonly tier?: 'production' | 'sandbox';
  /** The secret the console sends (default: the one its mock accepts). */
  readonly clientSecret?: string;
  /** Whether its failing takes the console out of rotation (default false). */
  readonly required?: boolean;
}

/** The console users every harness has, one per role, and their passwords. */
export const HARNESS_USERS: Record<Role, { username: string; password: string }> = {
  admin: { username: 'admin', password: 'admin-password-for-tests' },
  auditor: { username: 'auditor', password: 'auditor-password-for-tests' },
  support: { username: 'support', password: 'support-password-for-tests' },
};

/**
 * A console user with a role in a named connection only (support in `default`) and no
 * console-wide role: refused by every console-wide route, served their connection's.
 */
export const HARNESS_CONNECTION_USER = {
  username: 'connection-support',
  password: 'connection-support-password',
  connections: { default: 'support' },
} as const;

// Cheap scrypt parameters: the tests check behaviour, not hashing cost.
const TEST_SCRYPT: ScryptParams = { N: 1024, r: 8, p: 1 };

/**
 * The environment of a live-mode console against `upstream` with the users of `usersPath`:
 * the upstream's address and credentials, and fresh secrets (replicas of one console pass the
 * same object to each).
 */
export function liveConsoleEnv(
  upstream: Pick<MockUpstreamServer, 'url' | 'state'>,
  usersPath: string,
): Record<string, string> {
  return {
    UPSTREAM_BASE_URL: upstream.url,
    OAUTH_CLIENT_ID: upstream.state.clientId,
    OAUTH_CLIENT_SECRET: upstream.state.clientSecret,
    CONSOLE_USERS_FILE: usersPath,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    AUDIT_KEY: randomBytes(32).toString('base64url'),
  };
}

/** Writes a users file holding HARNESS_USERS and HARNESS_CONNECTION_USER into a fresh temporary directory. */
export async function writeHarnessUsersFile(): Promise<{ path: string; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'console-users-'));
  const path = join(dir, 'users.json');
  writeUsersFile(
    path,
    await Promise.all([
      ...Object.entries(HARNESS_USERS).map(async ([role, user]) => ({
        username: user.username,
        role: role as Role,
        passwordHash: await hashPassword(user.password, TEST_SCRYPT),
      })),
      (async () => ({
        username: HARNESS_CONNECTION_USER.username,
        connections: HARNESS_CONNECTION_USER.connections,
        passwordHash: await hashPassword(HARNESS_CONNECTION_USER.password, TEST_SCRYPT),
      }))(),
    ]),
  );
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts a mock upstream and composes a BFF against it; call `close()` after the test. */
export async function startBffHarness({
  env = {},
  mock = {},
  staticDir,
  logger,
  mockRateLimits,
  moduleRules,
  now,
  database,
  demoControls,
  redis,
  upstream: sharedUpstream,
  lastGoodEventTypesFile,
  readinessChecks,
  areas = [],
  providerFetch,
  otherConnections = [],
}: HarnessOptions = {}) {
  const usersFile = await writeHarnessUsersFile();
  const limits: MockRateLimits | undefined = mockRateLimits
    ? createMockRateLimits({
        ...(mock.now ? { now: mock.now } : {}),
        ...(moduleRules ? { moduleRules } : {}),
        ...(mockRateLimits === true ? {} : mockRateLimits),
      })
    : undefined;
  const state = createMockState({ ...mock, ...(limits ? { admission: limits.admission } : {}) });
  const upstream: MockUpstreamServer =
    sharedUpstream ?? (await startMockUpstreamServer({ port: 0, state, rateLimits: limits }));
  const parsed = parseConfig({
    LOG_LEVEL: 'silent',
    STATIC_DIR: staticDir ?? 'does-not-exist',
    ...liveConsoleEnv(upstream, usersFile.path),
    ...env,
  });
  // Each further connection: a mock of its own (its data and limits), the same credential shape.
  const others = await Promise.all(
    otherConnections.map(async (other) => {
      const otherLimits = mockRateLimits
        ? createMockRateLimits({
            ...(mock.now ? { now: mock.now } : {}),
            ...(moduleRules ? { moduleRules } : {}),
            ...(mockRateLimits === true ? {} : mockRateLimits),
            tier: other.tier ?? 'production',
          })
        : undefined;
      const otherState = createMockState({
        ...other.mock,
        ...(otherLimits ? { admission: otherLimits.admission } : {}),
      });
      const server = await startMockUpstreamServer({
        port: 0,
        state: otherState,
        rateLimits: otherLimits,
      });
      const first = parsed.connections[0] as ConnectionConfig;
      const connection: ConnectionConfig = {
        ...first,
        name: other.name,
        label: other.label,
        required: other.required ?? false,
        upstream: {
          ...first.upstream,
          baseUrl: server.url,
          accountTier: other.tier ?? first.upstream.accountTier,
        },
        oauth: {
          ...first.oauth,
          clientId: otherState.clientId,
          clientSecret: other.clientSecret ?? otherState.clientSecret,
        },
      };
      return { server, limits: otherLimits, connection };
    }),
  );
  const config: Config = {
    ...parsed,
    connections: [...parsed.connections, ...others.map((other) => other.connection)],
    // Several connections are only ever given by CONNECTIONS_FILE.
    connectionsFrom: others.length > 0 ? 'file' : parsed.connectionsFrom,
  };
  const http = createHttpTransport({
    timeoutMs: config.upstream.timeoutMs,
    maxAnswerBytes: config.upstream.maxAnswerBytes,
  });
  /** Every request the BFF sent upstream, as the upstream received it. */
  const sent: TransportRequest[] = [];
  /** Every upstream answer the BFF received, beside its request (failed calls have none). */
  const answered: Array<{ request: TransportRequest; response: TransportResponse }> = [];
  const bff = composeBff({
    config,
    logger: logger ?? createLogger('silent'),
    upstreamBaseUrl: config.upstream.baseUrl ?? upstream.url,
    transport: (request) => {
      sent.push(request);
      return http(request).then((response) => {
        answered.push({ request, response });
        return response;
      });
    },
    ...(now ? { now } : {}),
    ...(database ? { database } : {}),
    ...(moduleRules ? { moduleRules } : {}),
    ...(redis ? { redis } : {}),
    ...(lastGoodEventTypesFile ? { lastGoodEventTypesFile } : {}),
    extraAreas: [
      ...areas,
      ...(readinessChecks
        ? [{ routes: [], start() {}, stop() {}, readiness: readinessChecks }]
        : []),
    ],
    ...(providerFetch ? { providerFetch } : {}),
    ...(demoControls && limits
      ? { demoControls: createMockDemoControls(upstream.state, limits) }
      : {}),
  });
  await bff.ready();
  /** Signs in through POST /api/session and returns the `Cookie` header value to send. */
  /**
   * Signs in through POST /api/session as one of HARNESS_USERS by role, or as
   * HARNESS_CONNECTION_USER (`'connection-user'`: roles in named connections only); returns the
   * `Cookie` header value to send.
   */
  const signIn = async (who: Role | 'connection-user' = 'admin'): Promise<string> => {
    const { username, password } =
      who === 'connection-user' ? HARNESS_CONNECTION_USER : HARNESS_USERS[who];
    const response = await bff.app.request('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const cookie = response.headers.get('set-cookie')?.split(';', 1)[0];
    if (response.status !== 200 || !cookie) {
      throw new Error(`harness sign-in as ${who} failed with ${response.status}`);
    }
    return cookie;
  };
  const cookies = new Map<Role, Promise<string>>();
  /**
   * An API request with `X-CSRF: 1`, signed in as `as` (default admin; `null` for none) unless
   * the caller sends its own Cookie header.
   */
  const request = async (
    path: string,
    init: RequestInit = {},
    { as = 'admin' }: { as?: Role | null } = {},
  ) => {
    const given = (init.headers as Record<string, string> | undefined) ?? {};
    const hasCookie = Object.keys(given).some((name) => name.toLowerCase() === 'cookie');
    let cookie: string | undefined;
    if (as && !hasCookie) {
      if (!cookies.has(as)) cookies.set(as, signIn(as));
      cookie = await cookies.get(as);
    }
    return bff.app.request(path, {
      ...init,
      headers: { 'X-CSRF': '1', ...(cookie ? { Cookie: cookie } : {}), ...given },
    });
  };
  return {
    app: bff.app,
    upstream,
    mock: upstream.state,
    sent,
    answered,
    request,
    signIn,
    config,
    auth: bff.auth,
    /** The governor, incident store and live hub of this BFF. */
    rateLimiting: bff.rateLimiting,
    /** Shutdown begins: /readyz answers 503 from now on. */
    drain: bff.drain,
    /** The lookup audit trail of this BFF: its chain, records and search. */
    audit: bff.audit,
    /** What this BFF keeps beside its trail: walks of the chain, checkpoints, the write probe. */
    auditEvidence: bff.auditEvidence,
    /** The account-wide view's store and usage of this BFF. */
    integrations: bff.integrations,
    /** The planning area: the recorded traffic a what-if replays. */
    planning: bff.planning,
    /** Early warning and alerts: the outbox, each connection's monitor. */
    alerting: bff.alerting,
    /** The mock's rate-limit model, when `mockRateLimits` was given. */
    mockRateLimits: limits,
    /** Each further connection's mock upstream and rate-limit model, by name. */
    others: new Map(others.map((other) => [other.connection.name, other])),
    /** Every connection's parts (the first is `rateLimiting` above). */
    connections: bff.connections,
    async close() {
      await bff.close();
      await http.close();
      if (!sharedUpstream) await upstream.close();
      for (const other of others) await other.server.close();
      usersFile.remove();
    },
  };
}

export type BffHarness = Awaited<ReturnType<typeof startBffHarness>>;
