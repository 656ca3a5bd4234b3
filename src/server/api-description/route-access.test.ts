// Every described operation, as every role: the roles its description names get past the role
// check, the others get 403 and nothing reaches the platform. Driven by the API description
// itself, so a new operation is covered the day it is described.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleSchema, type Role } from '../../shared/session';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';
import { API_MODULES } from './api-modules';
import { describedBase } from '../http/api-operation';
import { connectionApiPath, DEFAULT_CONNECTION } from '../../shared/connections';

let h: BffHarness;
beforeAll(async () => {
  // Demo mode's extras too, so demo-only operations are served and checked.
  h = await startBffHarness({ mockRateLimits: true, demoControls: true });
}, 30_000);
afterAll(() => h.close());

const ROLES = RoleSchema.options;

/** Every operation behind a session: method, a concrete path (parameters filled), its roles. */
const OPERATIONS = API_MODULES.flatMap((module) =>
  module.operations.flatMap((operation) =>
    'session' in operation.access
      ? [
          {
            operationId: operation.operationId,
            method: operation.method.toUpperCase(),
            path: `${describedBase(module)}${operation.path === '/' ? '' : operation.path}`
              .replace(':connection', DEFAULT_CONNECTION)
              .replace(/:[A-Za-z]+/g, 'x'),
            roles: operation.access.session,
            /** One connection's operation: decided by the person's role in that connection. */
            scoped: module.scope === 'connection',
          },
        ]
      : [],
  ),
);

/** Signs in the person with a role in the connection `default` only; their Cookie header. */
/** A session of HARNESS_CONNECTION_USER: support in `default`, no console-wide role. */
const connectionOnlyCookie = () => h.signIn('connection-user');

async function call(
  method: string,
  path: string,
  as: Role | { cookie: string },
): Promise<Response> {
  const response = await h.request(
    path,
    {
      method,
      headers: {
        'Content-Type': 'application/json',
        ...(typeof as === 'object' ? { Cookie: as.cookie } : {}),
      },
      ...(method === 'GET' ? {} : { body: '{}' }),
    },
    { as: typeof as === 'object' ? null : as },
  );
  // The live stream never ends by itself; only the status is wanted.
  await response.body?.cancel();
  return response;
}

describe('each role on each described operation', () => {
  it('covers the whole description, and each role is refused somewhere but auditors see the trail', () => {
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(40);
    const allowed = (role: Role) =>
      OPERATIONS.filter((operation) => operation.roles.includes(role));
    expect(allowed('admin')).toHaveLength(OPERATIONS.length);
    expect(allowed('auditor').map(({ method, path }) => `${method} ${path}`)).toEqual(
      expect.arrayContaining(['GET /api/audit-trail', 'POST /api/audit-trail/verify']),
    );
    expect(allowed('auditor').every(({ path }) => !path.startsWith('/api/data-subjects'))).toBe(
      true,
    );
  });

  it.each(ROLES)(
    'refuses %s with 403 wherever its role is not named, sending nothing',
    async (role) => {
      const refused = OPERATIONS.filter((operation) => !operation.roles.includes(role));
      const sentBefore = h.sent.length;
      const wrong: string[] = [];
      for (const { method, path } of refused) {
        const response = await call(method, path, role);
        if (response.status !== 403) wrong.push(`${method} ${path}: ${response.status}`);
      }
      expect(wrong).toEqual([]);
      expect(h.sent.length).toBe(sentBefore);
    },
  );

  it.each(ROLES)('lets %s past the role check wherever its role is named', async (role) => {
    const wrong: string[] = [];
    // Signing out everywhere ends the test's own session, so it is called last.
    const last = (operationId: string) => (operationId === 'signOutEverywhere' ? 1 : 0);
    const allowed = OPERATIONS.filter((operation) => operation.roles.includes(role)).sort(
      (a, b) => last(a.operationId) - last(b.operationId),
    );
    for (const { method, path } of allowed) {
      const response = await call(method, path, role);
      // The handler answers (200, 400 for the empty body, 404 for the made-up id …), never 401/403.
      if (response.status === 401 || response.status === 403) {
        wrong.push(`${method} ${path}: ${response.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('a person with roles in named connections only', () => {
  it('is refused by every console-wide operation with 403, sending nothing', async () => {
    const cookie = await connectionOnlyCookie();
    const sentBefore = h.sent.length;
    const wrong: string[] = [];
    for (const { method, path } of OPERATIONS.filter((operation) => !operation.scoped)) {
      const response = await call(method, path, { cookie });
      if (response.status !== 403) wrong.push(`${method} ${path}: ${response.status}`);
    }
    expect(wrong).toEqual([]);
    expect(h.sent.length).toBe(sentBefore);
  });

  it("works their connection's pages as its role allows there, and meets 404 for one not configured", async () => {
    const cookie = await connectionOnlyCookie();
    const scoped = OPERATIONS.filter((operation) => operation.scoped);
    expect(scoped.length).toBeGreaterThan(5);
    // Support in `default`: an operation for admins only there is refused like any support's.
    const wrong: string[] = [];
    for (const { method, path, roles } of scoped.filter(
      (operation) => !operation.roles.includes('support'),
    )) {
      const response = await call(method, path, { cookie });
      if (response.status !== 403)
        wrong.push(`${method} ${path}: ${response.status} (${roles.join(',')})`);
    }
    expect(wrong).toEqual([]);
    const list = await h.request(
      '/api/connections/default/event-types',
      { headers: { Cookie: cookie } },
      { as: null },
    );
    expect(list.status).toBe(200);
    await list.body?.cancel();
    const elsewhere = await h.request(
      '/api/connections/uat/event-types',
      { headers: { Cookie: cookie } },
      { as: null },
    );
    expect(elsewhere.status).toBe(404);
  });

  /** A GET with `cookie`, its body read. */
  const get = async (path: string, cookie: string) => {
    const response = await h.request(path, { headers: { Cookie: cookie } }, { as: null });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('is told their roles, and lists their connections', async () => {
    const cookie = await connectionOnlyCookie();
    const session = await get('/api/session', cookie);
    expect(session.body).toMatchObject({
      username: 'connection-support',
      roles: { default: 'support' },
    });
    expect(session.body).not.toHaveProperty('role');
    expect(await get('/api/connections', cookie)).toEqual({
      status: 200,
      body: {
        connections: [{ name: 'default', label: 'Default', colour: 'blue', role: 'support' }],
      },
    });
  });

  it.each(ROLES)('lists the connections of %s too', async (role) => {
    // A fresh session: signing out everywhere above ended the role's first one.
    expect(await get('/api/connections', await h.signIn(role))).toMatchObject({
      status: 200,
      body: { connections: [{ name: 'default', role }] },
    });
  });
});

describe('what each role may do, in words', () => {
  const rolesOf = (method: string, path: string) =>
    OPERATIONS.find(
      (operation) =>
        operation.method === method &&
        // `default`'s operations are also served without the connection prefix.
        [path, connectionApiPath(DEFAULT_CONNECTION, path)].includes(operation.path),
    )?.roles;

  it('auditors read, search, verify and export the trail, and read the operational pages', () => {
    for (const [method, path] of [
      ['GET', '/api/audit-trail'],
      ['POST', '/api/audit-trail/search'],
      ['POST', '/api/audit-trail/export'],
      ['POST', '/api/audit-trail/verify'],
      ['GET', '/api/event-types'],
      ['GET', '/api/rate-limits/incidents'],
      ['POST', '/api/planning/what-if'],
    ] as const) {
      expect(rolesOf(method, path), `${method} ${path}`).toContain('auditor');
    }
  });

  it('auditors look nobody up and change nothing', () => {
    for (const [method, path] of [
      ['POST', '/api/data-subjects/lookups'],
      ['PUT', '/api/alerts/thresholds/x/x'],
      ['POST', '/api/alerts/destinations'],
      ['POST', '/api/integrations'],
      ['DELETE', '/api/rate-limits/reported-limits'],
      ['DELETE', '/api/sign-in-locks/x'],
      ['POST', '/api/demo-controls'],
    ] as const) {
      expect(rolesOf(method, path), `${method} ${path}`).not.toContain('auditor');
    }
  });

  it('support never reaches personal data', () => {
    const personal = OPERATIONS.filter(
      ({ path }) => path.startsWith('/api/data-subjects') || path.startsWith('/api/audit-trail'),
    );
    expect(personal.length).toBeGreaterThan(0);
    expect(personal.filter(({ roles }) => roles.includes('support'))).toEqual([]);
  });
});
