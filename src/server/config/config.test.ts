import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';
import { parseRedisTarget as parseTarget } from '../redis/redis-target';
import { DEFAULT_PURPOSE_CATEGORIES } from '../../shared/lookup-purpose';

/** The least a live-mode configuration needs. */
const LIVE_ENV = {
  UPSTREAM_BASE_URL: 'https://api.example.com',
  OAUTH_CLIENT_ID: 'id',
  OAUTH_CLIENT_SECRET: 'secret',
  CONSOLE_USERS_FILE: './users.json',
  SESSION_SECRET: 'a-session-secret-of-at-least-32-chars',
  AUDIT_KEY: 'an-audit-key-of-at-least-32-characters',
};

describe('parseConfig', () => {
  it('runs in demo mode on 127.0.0.1:8787 with no configuration', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8787,
      mode: 'demo',
      upstream: {
        arrayQueryStyle: 'repeat',
        accountTier: 'production',
        timeoutMs: 10_000,
        maxAnswerBytes: 16 * 1024 * 1024,
      },
      oauth: { clientAuth: 'body', tokenEncoding: 'multipart' },
      incidentRetentionDays: 90,
      dataDir: './.data',
    });
    // The vendor's token document has no scope field: none is sent unless one is configured.
    expect(config.oauth.scope).toBeUndefined();
  });

  it('encodes the token request as the vendor document does unless OAUTH_TOKEN_ENCODING says form', () => {
    expect(parseConfig({ OAUTH_TOKEN_ENCODING: 'form' }).oauth.tokenEncoding).toBe('form');
    expect(parseConfig({ OAUTH_TOKEN_ENCODING: 'multipart' }).oauth.tokenEncoding).toBe(
      'multipart',
    );
    expect(() => parseConfig({ OAUTH_TOKEN_ENCODING: 'json' })).toThrow(
      /OAUTH_TOKEN_ENCODING.*must be "multipart" or "form"/,
    );
  });

  it('reads per-operation answer limits and refuses one beyond what the heap is sized for', () => {
    const config = parseConfig({
      UPSTREAM_MAX_ANSWER_BYTES_BY_OPERATION: 'event-types=33554432, get-data-subject=1048576',
    });
    expect(config.upstream.maxAnswerBytesByOperation).toEqual({
      'event-types': 33_554_432,
      'get-data-subject': 1_048_576,
    });
    expect(() =>
      parseConfig({ UPSTREAM_MAX_ANSWER_BYTES_BY_OPERATION: 'event-types=999999999' }),
    ).toThrow('event-types must be from');
    expect(() => parseConfig({ UPSTREAM_MAX_ANSWER_BYTES_BY_OPERATION: 'event-types:1' })).toThrow(
      /^UPSTREAM_MAX_ANSWER_BYTES_BY_OPERATION must be operation=bytes pairs separated by commas \(got "event-types:1"\)$/,
    );
  });

  it('switches to live mode with UPSTREAM_BASE_URL and then requires the client credentials', () => {
    expect(() => parseConfig({ UPSTREAM_BASE_URL: 'https://api.example.com' })).toThrow(
      'OAUTH_CLIENT_ID is required when UPSTREAM_BASE_URL is set',
    );
    const config = parseConfig({
      UPSTREAM_BASE_URL: 'https://api.example.com/',
      OAUTH_CLIENT_ID: 'id',
      OAUTH_CLIENT_SECRET: 'secret',
      CONSOLE_USERS_FILE: './users.json',
      SESSION_SECRET: 'x'.repeat(32),
      AUDIT_KEY: 'k'.repeat(32),
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

  describe('rate limits', () => {
    it('keeps soft limits and simulates 600 requests a minute of other clients by default', () => {
      const config = parseConfig({});
      expect(config.rateLimits).toEqual({
        policy: 'account-and-module',
        endpointMinuteLimit: undefined,
        keepSoftLimits: true,
        accountOverride: {},
      });
      // The demo's reporting integrations share these; far below every account limit.
      expect(config.demo.backgroundRpm).toBe(600);
    });

    it('reads RATE_LIMIT_SOFT_LIMITS and MOCK_BACKGROUND_RPM', () => {
      const config = parseConfig({
        RATE_LIMIT_SOFT_LIMITS: 'ignore',
        MOCK_BACKGROUND_RPM: '12000',
      });
      expect(config.rateLimits).toMatchObject({ keepSoftLimits: false, accountOverride: {} });
      expect(config.demo.backgroundRpm).toBe(12_000);
    });

    it('selects the newer per-endpoint policy, with its own override', () => {
      expect(
        parseConfig({ RATE_LIMIT_POLICY: 'per-endpoint', ENDPOINT_MINUTE_LIMIT: '500' }).rateLimits,
      ).toMatchObject({ policy: 'per-endpoint', endpointMinuteLimit: 500 });
      expect(() => parseConfig({ RATE_LIMIT_POLICY: 'newest' })).toThrow(/^RATE_LIMIT_POLICY must/);
      expect(() =>
        parseConfig({ RATE_LIMIT_POLICY: 'per-endpoint', ACCOUNT_MINUTE_LIMIT: '1000' }),
      ).toThrow(/^ACCOUNT_MINUTE_LIMIT has no effect/);
      expect(() => parseConfig({ ENDPOINT_MINUTE_LIMIT: '1000' })).toThrow(
        /^ENDPOINT_MINUTE_LIMIT applies only/,
      );
    });

    it('reads a vendor-granted account override', () => {
      expect(parseConfig({ ACCOUNT_MINUTE_LIMIT: '40000' }).rateLimits.accountOverride).toEqual({
        MINUTE: 40_000,
      });
      expect(
        parseConfig({ ACCOUNT_MINUTE_LIMIT: '100000000', ACCOUNT_HOUR_LIMIT: '1000000000' })
          .rateLimits.accountOverride,
      ).toEqual({ MINUTE: 100_000_000, HOUR: 1_000_000_000 });
    });

    it.each([
      [{ RATE_LIMIT_SOFT_LIMITS: 'maybe' }, /^RATE_LIMIT_SOFT_LIMITS must be "keep" or "ignore"/],
      [{ MOCK_BACKGROUND_RPM: '-1' }, /^MOCK_BACKGROUND_RPM must be a whole number from 0/],
      [{ ACCOUNT_MINUTE_LIMIT: '0' }, /^ACCOUNT_MINUTE_LIMIT must be a whole number from 1/],
    ])('stops with one line for %o', (env, message) => {
      expect(() => parseConfig(env)).toThrow(message);
    });
  });

  describe('console sign-in', () => {
    const live = LIVE_ENV;

    it('requires CONSOLE_USERS_FILE in live mode, with one line saying how to create it', () => {
      const { CONSOLE_USERS_FILE: _, ...env } = live;
      expect(() => parseConfig(env)).toThrow(
        /^CONSOLE_USERS_FILE is required when UPSTREAM_BASE_URL is set \(create it with: npm run users/,
      );
    });

    it('requires SESSION_SECRET of at least 32 characters in live mode, never repeating it', () => {
      const { SESSION_SECRET: _, ...env } = live;
      expect(() => parseConfig(env)).toThrow(/^SESSION_SECRET is required when UPSTREAM_BASE_URL/);
      let message = '';
      try {
        parseConfig({ ...live, SESSION_SECRET: 'short-secret-value' });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toBe('SESSION_SECRET must be at least 32 characters');
    });

    it('uses the users file and secret in live mode and has no demo users', () => {
      const config = parseConfig(live);
      expect(config.auth).toMatchObject({
        usersFile: './users.json',
        sessionSecret: live.SESSION_SECRET,
        sessionIdleMinutes: 480,
        sessionMaxHours: 12,
      });
    });

    it('makes up a random session secret per start in demo mode, with the demo password', () => {
      const first = parseConfig({});
      const second = parseConfig({});
      expect(first.auth.sessionSecret.length).toBeGreaterThanOrEqual(32);
      expect(first.auth.sessionSecret).not.toBe(second.auth.sessionSecret);
      expect(first.auth.demoPassword).toBe('demo');
      expect(first.auth.usersFile).toBeUndefined();
      expect(parseConfig({ DEMO_PASSWORD: 'other' }).auth.demoPassword).toBe('other');
    });

    it('reads SESSION_IDLE_MINUTES, SESSION_MAX_HOURS, PUBLIC_URL and TRUST_PROXY', () => {
      const config = parseConfig({
        SESSION_IDLE_MINUTES: '30',
        SESSION_MAX_HOURS: '8',
        PUBLIC_URL: 'https://console.example.com/',
        TRUST_PROXY: 'true',
      });
      expect(config.auth).toMatchObject({ sessionIdleMinutes: 30, sessionMaxHours: 8 });
      expect(config.web).toEqual({ publicOrigin: 'https://console.example.com', trustProxy: true });
      expect(parseConfig({}).web).toEqual({ publicOrigin: undefined, trustProxy: false });
    });

    it.each([
      [{ SESSION_IDLE_MINUTES: '0' }, /^SESSION_IDLE_MINUTES must be a whole number from 1/],
      [{ PUBLIC_URL: 'https://console.example.com/app' }, /^PUBLIC_URL must be an origin/],
      [{ TRUST_PROXY: 'yes' }, /^TRUST_PROXY must be "true" or "false"/],
    ])('stops with one line for %o', (env, message) => {
      expect(() => parseConfig(env)).toThrow(message);
    });

    it('never repeats DEMO_PASSWORD in its error', () => {
      expect(() => parseConfig({ DEMO_PASSWORD: 'x'.repeat(2000) })).toThrow(
        /^DEMO_PASSWORD [^(]*$/,
      );
    });
  });

  describe('scale-out', () => {
    it('keeps the embedded store, no Redis, one replica and loopback-only metrics by default', () => {
      const config = parseConfig({});
      expect(config.scaleOut).toEqual({
        databaseUrl: undefined,
        redisUrl: undefined,
        redisCluster: false,
        replicas: 1,
      });
      expect(config.metrics).toEqual({ token: undefined });
    });

    it('reads DATABASE_URL, REDIS_URL, REPLICAS and METRICS_TOKEN', () => {
      const config = parseConfig({
        DATABASE_URL: 'postgres://console:pw@db.internal:5432/console',
        REDIS_URL: 'rediss://:pw@cache.internal:6380/2',
        REPLICAS: '3',
        METRICS_TOKEN: 'm'.repeat(40),
        SESSION_SECRET: 's'.repeat(32),
      });
      expect(config.scaleOut).toEqual({
        databaseUrl: 'postgres://console:pw@db.internal:5432/console',
        redisUrl: 'rediss://:pw@cache.internal:6380/2',
        redisCluster: false,
        replicas: 3,
      });
      expect(config.metrics.token).toBe('m'.repeat(40));
      expect(parseConfig({ DATABASE_URL: 'postgresql://h/db' }).scaleOut.databaseUrl).toBe(
        'postgresql://h/db',
      );
    });

    it.each([
      [
        { DATABASE_URL: 'mysql://u:hunter2@h/db' },
        'DATABASE_URL must be a postgres:// or postgresql:// URL',
      ],
      [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
      [
        { REDIS_URL: 'http://u:hunter2@h:6379' },
        'REDIS_URL must be a redis:// or rediss:// URL, or redis+cluster://host1:6379,host2:6379 for a Redis Cluster',
      ],
      [
        { REDIS_URL: 'redis://:hunter2@h1:6379,h2:6379', SESSION_SECRET: 's'.repeat(32) },
        'REDIS_URL lists several hosts: for a Redis Cluster write redis+cluster://host1:6379,host2:6379 (or set REDIS_CLUSTER=true)',
      ],
      [
        { REDIS_URL: 'redis+cluster://:hunter2@h1:6379,h2:99999', SESSION_SECRET: 's'.repeat(32) },
        'REDIS_URL lists a node that is not host:port (node 2); write redis+cluster://host1:6379,host2:6379 and percent-encode the password',
      ],
      [
        { REDIS_URL: 'redis+cluster://:hunt@er2@h1:6379', SESSION_SECRET: 's'.repeat(32) },
        'REDIS_URL lists a node that is not host:port (node 1); write redis+cluster://host1:6379,host2:6379 and percent-encode the password',
      ],
      [
        { REDIS_URL: 'redis+cluster://:hunter2@h1:6379/2', SESSION_SECRET: 's'.repeat(32) },
        'REDIS_URL names a database, but a Redis Cluster has only database 0',
      ],
      [
        { REDIS_CLUSTER: 'true', SESSION_SECRET: 's'.repeat(32) },
        "REDIS_CLUSTER=true needs REDIS_URL naming the cluster's seed nodes",
      ],
      [{ REDIS_CLUSTER: 'yes' }, 'REDIS_CLUSTER must be "true" or "false" (got "yes")'],
      [{ REPLICAS: '0' }, 'REPLICAS must be a whole number from 1 to 1000 (got "0")'],
      [{ METRICS_TOKEN: 'hunter2' }, 'METRICS_TOKEN must be at least 32 characters'],
    ])('stops with one line, never repeating a URL or token, for %o', (env, message) => {
      let error: unknown;
      try {
        parseConfig(env);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toBe(message);
    });

    it('reads a Redis Cluster from redis+cluster:// seeds, or from REDIS_CLUSTER=true', () => {
      const secret = { SESSION_SECRET: 's'.repeat(32) };
      expect(
        parseConfig({ ...secret, REDIS_URL: 'redis+cluster://:pw@10.0.0.1:7000,10.0.0.2' })
          .scaleOut,
      ).toMatchObject({
        redisUrl: 'redis+cluster://:pw@10.0.0.1:7000,10.0.0.2',
        redisCluster: true,
      });
      expect(
        parseConfig({ ...secret, REDIS_URL: 'rediss://:pw@cache:6380', REDIS_CLUSTER: 'true' })
          .scaleOut.redisCluster,
      ).toBe(true);
      expect(parseTarget('rediss+cluster://user:p%40ss@[::1]:7000,cache.internal')).toEqual({
        kind: 'cluster',
        nodes: [
          { host: '::1', port: 7000 },
          { host: 'cache.internal', port: 6379 },
        ],
        username: 'user',
        password: 'p@ss',
        tls: true,
      });
    });

    it('requires SESSION_SECRET with REDIS_URL: every replica must verify the same cookies', () => {
      expect(() => parseConfig({ REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(
        /^SESSION_SECRET is required when REDIS_URL is set/,
      );
    });
  });

  describe('data subjects', () => {
    const live = LIVE_ENV;

    it('uses the key file and the built-in catalog by default in demo mode', () => {
      expect(parseConfig({}).dataSubjects).toEqual({
        auditKey: undefined,
        operationsFile: undefined,
        auditRetentionDays: 730,
        auditExportMaxRecords: 100_000,
        auditCheckpointMinutes: 5,
        auditCheckpointDir: undefined,
        purposeMode: 'required',
        purposeCategories: [...DEFAULT_PURPOSE_CATEGORIES],
      });
    });

    it('reads LOOKUP_PURPOSE and LOOKUP_PURPOSE_CATEGORIES, and refuses nonsense', () => {
      expect(
        parseConfig({
          LOOKUP_PURPOSE: 'required',
          LOOKUP_PURPOSE_CATEGORIES: ' access request, audit ,audit,',
        }).dataSubjects,
      ).toMatchObject({ purposeMode: 'required', purposeCategories: ['access request', 'audit'] });
      expect(() => parseConfig({ LOOKUP_PURPOSE: 'sometimes' })).toThrow(/LOOKUP_PURPOSE/);
      expect(() => parseConfig({ LOOKUP_PURPOSE_CATEGORIES: ' , ' })).toThrow(
        /LOOKUP_PURPOSE_CATEGORIES/,
      );
    });

    it('reads the audit retention and the largest export, and refuses nonsense', () => {
      expect(
        parseConfig({ AUDIT_RETENTION_DAYS: '90', AUDIT_EXPORT_MAX_RECORDS: '5000' }).dataSubjects,
      ).toMatchObject({ auditRetentionDays: 90, auditExportMaxRecords: 5000 });
      expect(() => parseConfig({ AUDIT_RETENTION_DAYS: '0' })).toThrow(/AUDIT_RETENTION_DAYS/);
      expect(() => parseConfig({ AUDIT_EXPORT_MAX_RECORDS: 'lots' })).toThrow(
        /AUDIT_EXPORT_MAX_RECORDS/,
      );
    });

    it('reads AUDIT_KEY and DATA_SUBJECT_OPERATIONS_FILE', () => {
      expect(parseConfig(live).dataSubjects).toMatchObject({
        auditKey: live.AUDIT_KEY,
        operationsFile: undefined,
      });
      expect(
        parseConfig({ DATA_SUBJECT_OPERATIONS_FILE: './operations.json' }).dataSubjects
          .operationsFile,
      ).toBe('./operations.json');
    });

    it('requires AUDIT_KEY in live mode, with one line', () => {
      const { AUDIT_KEY: _, ...env } = live;
      expect(() => parseConfig(env)).toThrow(
        /^AUDIT_KEY is required when UPSTREAM_BASE_URL is set/,
      );
    });

    it('refuses a short AUDIT_KEY without repeating it', () => {
      let message = '';
      try {
        parseConfig({ ...live, AUDIT_KEY: 'short-key-value' });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      expect(message).toBe('AUDIT_KEY must be at least 32 characters');
    });
  });
});

describe('single sign-on settings', () => {
  const OIDC = {
    OIDC_ISSUER: 'https://login.example.com/realms/staff',
    OIDC_CLIENT_ID: 'privacy-console',
    OIDC_CLIENT_SECRET: 'a-client-secret',
    OIDC_ROLE_MAP: 'admin=privacy-admins;auditor=dpo;support=support-team,helpdesk',
    PUBLIC_URL: 'https://console.example.com',
  };

  it('reads the provider, the role map in its order and the redirect URI', () => {
    const { identity, auth } = parseConfig({ ...OIDC, OIDC_ROLES_CLAIM: 'realm_access.roles' });
    expect(identity).toMatchObject({
      issuer: OIDC.OIDC_ISSUER,
      clientAuth: 'basic',
      scopes: 'openid profile email',
      displayName: 'login.example.com',
      rolesClaim: ['realm_access', 'roles'],
      roleMap: [
        { role: 'admin', groups: ['privacy-admins'] },
        { role: 'auditor', groups: ['dpo'] },
        { role: 'support', groups: ['support-team', 'helpdesk'] },
      ],
      requireMfa: false,
      personalDataMaxAuthAgeSeconds: undefined,
      redirectUri: 'https://console.example.com/auth/callback',
    });
    expect(auth.localSignIn).toBe(true);
  });

  it.each<[string, Record<string, string>, string]>([
    [
      'an http:// issuer off loopback',
      { OIDC_ISSUER: 'http://login.example.com' },
      'OIDC_ISSUER must use https:// unless it is on a loopback address (got "http://login.example.com")',
    ],
    [
      'no client secret',
      { OIDC_CLIENT_SECRET: '' },
      'OIDC_CLIENT_SECRET is required when OIDC_ISSUER is set',
    ],
    ['no PUBLIC_URL', { PUBLIC_URL: '' }, 'PUBLIC_URL is required when OIDC_ISSUER is set'],
    ['an unknown role', { OIDC_ROLE_MAP: 'owner=everyone' }, 'OIDC_ROLE_MAP must be role=group'],
    ['a role twice', { OIDC_ROLE_MAP: 'admin=a;admin=b' }, 'OIDC_ROLE_MAP names admin twice'],
    ['a role without group', { OIDC_ROLE_MAP: 'admin=' }, 'OIDC_ROLE_MAP gives admin no group'],
    [
      'a connection that is not configured',
      { OIDC_ROLE_MAP: 'admin=a;admin@uat,prod=b' },
      'OIDC_ROLE_MAP names the connection "prod" (in admin@uat,prod), which is not configured (configured: default, uat)',
    ],
    [
      'a role twice in one connection',
      { OIDC_ROLE_MAP: 'admin@default=a;admin@default=b' },
      'OIDC_ROLE_MAP names admin in the connection "default" twice',
    ],
    [
      'a malformed connection name',
      { OIDC_ROLE_MAP: 'admin@UAT=b' },
      'OIDC_ROLE_MAP must name connections as role=group,group;role@connection,connection=group;… (got "UAT" in admin@…)',
    ],
    ['scopes without openid', { OIDC_SCOPES: 'profile email' }, 'OIDC_SCOPES must include openid'],
  ])('refuses %s with one line', (_case, env, message) => {
    expect(() => parseConfig({ ...OIDC, ...env })).toThrow(ConfigError);
    expect(() => parseConfig({ ...OIDC, ...env })).toThrow(message);
  });

  it('reads entries qualified by connection beside the console-wide ones, in the map’s order', () => {
    const { identity } = parseConfig({
      ...OIDC,
      OIDC_ROLE_MAP: 'admin=privacy-admins;admin@default=prod-admins;support@default=helpdesk',
    });
    expect(identity?.roleMap).toEqual([
      { role: 'admin', groups: ['privacy-admins'] },
      { role: 'admin', groups: ['prod-admins'], connections: ['default'] },
      { role: 'support', groups: ['helpdesk'], connections: ['default'] },
    ]);
  });

  it('accepts a plain-http issuer on loopback (a local provider)', () => {
    expect(parseConfig({ ...OIDC, OIDC_ISSUER: 'http://127.0.0.1:8791' }).identity?.issuer).toBe(
      'http://127.0.0.1:8791',
    );
  });

  it('refuses LOCAL_SIGN_IN=off without a provider, and needs no users file with one', () => {
    expect(() => parseConfig({ LOCAL_SIGN_IN: 'off' })).toThrow(
      'LOCAL_SIGN_IN=off needs OIDC_ISSUER',
    );
    const live = { ...LIVE_ENV, ...OIDC, LOCAL_SIGN_IN: 'off', CONSOLE_USERS_FILE: '' };
    expect(parseConfig(live).auth.localSignIn).toBe(false);
  });
});

/** The message parseConfig refuses `env` with (fails the test when it is accepted). */
function refusal(env: Record<string, string | undefined>): string {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('connections', () => {
  /** An owner-only connections file listing `connections`. */
  function connectionsFile(connections: unknown): string {
    const path = join(mkdtempSync(join(tmpdir(), 'console-connections-')), 'connections.json');
    writeFileSync(path, JSON.stringify(connections));
    chmodSync(path, 0o600);
    return path;
  }
  const TWO = [
    {
      name: 'default',
      label: 'Production (EU)',
      colour: 'red',
      baseUrl: 'https://eu.api.example.com',
      clientId: 'console-eu',
      clientSecret: 'HUNTER2-eu',
    },
    {
      name: 'uat',
      label: 'UAT',
      baseUrl: 'https://uat.api.example.com',
      clientId: 'console-uat',
      clientSecret: 'HUNTER2-uat',
      tier: 'sandbox',
    },
  ];
  const {
    UPSTREAM_BASE_URL: _,
    OAUTH_CLIENT_ID: __,
    OAUTH_CLIENT_SECRET: ___,
    ...LIVE_REST
  } = LIVE_ENV;

  it('makes the old variables the one connection default, as before', () => {
    const config = parseConfig(LIVE_ENV);
    expect(config.connections).toEqual([
      {
        name: 'default',
        label: 'Default',
        colour: 'blue',
        required: false,
        upstream: config.upstream,
        oauth: config.oauth,
        rateLimits: config.rateLimits,
      },
    ]);
    expect(config.oauth).toMatchObject({ clientId: 'id', clientSecret: 'secret' });
  });

  it('offers two mock connections in demo mode, production and UAT, with different limits', () => {
    const config = parseConfig({});
    expect(
      config.connections.map(({ name, label, colour, upstream, oauth }) => ({
        name,
        label,
        colour,
        tier: upstream.accountTier,
        clientId: oauth.clientId,
      })),
    ).toEqual([
      {
        name: 'default',
        label: 'Production (EU)',
        colour: 'blue',
        tier: 'production',
        clientId: 'demo-client',
      },
      { name: 'uat', label: 'UAT', colour: 'green', tier: 'sandbox', clientId: 'demo-client' },
    ]);
    expect(config.upstream).toBe(config.connections[0]?.upstream);
    expect(config.upstream.accountTier).toBe('production');
  });

  it('reads CONNECTIONS_FILE in live mode; the first connection is the top-level one', () => {
    const config = parseConfig({ ...LIVE_REST, CONNECTIONS_FILE: connectionsFile(TWO) });
    expect(config.mode).toBe('live');
    expect(config.connections.map(({ name, colour }) => [name, colour])).toEqual([
      ['default', 'red'],
      ['uat', 'green'],
    ]);
    expect(config.upstream.baseUrl).toBe('https://eu.api.example.com');
    expect(config.oauth.clientSecret).toBe('HUNTER2-eu');
    expect(config.connections[1]?.upstream.accountTier).toBe('sandbox');
  });

  it('still requires the users file, the session secret and the audit key with CONNECTIONS_FILE', () => {
    const file = connectionsFile(TWO);
    for (const name of ['CONSOLE_USERS_FILE', 'SESSION_SECRET', 'AUDIT_KEY'] as const) {
      expect(refusal({ ...LIVE_REST, [name]: undefined, CONNECTIONS_FILE: file })).toMatch(
        new RegExp(`^${name} is required when CONNECTIONS_FILE is set`),
      );
    }
  });

  it("refuses CONNECTIONS_FILE beside a connection variable, naming them, with the file's own problems", () => {
    const message = refusal({
      ...LIVE_ENV,
      ACCOUNT_TIER: 'sandbox',
      CONNECTIONS_FILE: connectionsFile([{ ...TWO[0], timeoutMs: 'soon' }]),
    });
    expect(message.split('\n')).toEqual([
      "CONNECTIONS_FILE cannot be combined with UPSTREAM_BASE_URL, OAUTH_CLIENT_ID, OAUTH_CLIENT_SECRET, ACCOUNT_TIER: the file gives every connection's settings; move them into its connections",
      'CONNECTIONS_FILE: connection "default" (#1): timeoutMs must be a whole number from 100 to 120000 (got "soon")',
    ]);
    expect(message).not.toContain('HUNTER2');
  });

  it('hands the warnings of the file to the caller', () => {
    const path = connectionsFile(TWO);
    chmodSync(path, 0o640);
    const warnings: string[] = [];
    parseConfig({ ...LIVE_REST, CONNECTIONS_FILE: path }, (warning) => warnings.push(warning));
    expect(warnings).toEqual([
      `CONNECTIONS_FILE ${path} is readable by other users (mode 640); make it readable by the console's user alone (chmod 400 or 600)`,
    ]);
  });
});
