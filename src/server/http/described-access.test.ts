// The role check read from the API description: the described roles pass, others get 403, and a
// route nobody described is not served even to an admin.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../shared/session';
import type { AppEnv } from './app-env';
import { problemResponse, HttpProblem } from './problem';
import { ADMIN_ONLY, ANY_ROLE, type ApiModule } from './api-operation';
import { requireDescribedAccess } from './described-access';

const answer = { 200: { description: 'ok' } };
const API: readonly ApiModule[] = [
  {
    base: '/api/mine',
    tag: { name: 'Mine', description: 'One’s own view' },
    operations: [
      {
        method: 'get',
        path: '/',
        operationId: 'e',
        summary: 'e',
        access: { signedIn: true },
        responses: answer,
      },
    ],
  },
  {
    base: '/api/things',
    tag: { name: 'Things', description: 'Things' },
    operations: [
      {
        method: 'get',
        path: '/',
        operationId: 'a',
        summary: 'a',
        access: { session: ANY_ROLE },
        responses: answer,
      },
      {
        method: 'get',
        path: '/:id',
        operationId: 'b',
        summary: 'b',
        access: { session: ADMIN_ONLY },
        responses: answer,
      },
      // Overlaps `/:id`: the stricter of the two applies.
      {
        method: 'get',
        path: '/open',
        operationId: 'c',
        summary: 'c',
        access: { session: ANY_ROLE },
        responses: answer,
      },
    ],
  },
  {
    base: '/api/personal',
    tag: { name: 'Personal', description: 'Personal data' },
    operations: [
      {
        method: 'get',
        path: '/',
        operationId: 'd',
        summary: 'd',
        access: { session: ADMIN_ONLY },
        responses: answer,
      },
    ],
  },
];

/** The app as `role` sees it; `undefined`: a person with a role in the connection `uat` only. */
function appFor(role: Role | undefined) {
  const app = new Hono<AppEnv>();
  app.use('/api/*', async (c, next) => {
    c.set(
      'user',
      role
        ? { username: role, role, roles: { default: role } }
        : { username: 'una', roles: { uat: 'admin' } },
    );
    await next();
  });
  app.use(
    '/api/*',
    requireDescribedAccess(API, (c) => c.text('not described', 404)),
  );
  app.get('/api/things', (c) => c.text('list'));
  app.get('/api/things/:id', (c) => c.text('one'));
  app.get('/api/mine', (c) => c.text('mine'));
  // Mounted, never described: a route someone added and forgot to describe.
  app.get('/api/things/:id/secrets', (c) => c.text('secrets'));
  app.onError((error, c) =>
    error instanceof HttpProblem ? problemResponse(c, error.problem) : c.text('boom', 500),
  );
  return app;
}

describe('requireDescribedAccess', () => {
  it('lets a described role through and refuses the others with 403', async () => {
    expect((await appFor('support').request('/api/things')).status).toBe(200);
    expect((await appFor('admin').request('/api/things/7')).status).toBe(200);
    const refused = await appFor('support').request('/api/things/7');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ type: '/problems/forbidden' });
  });

  it('serves HEAD as the GET it is described by', async () => {
    expect((await appFor('auditor').request('/api/things/7', { method: 'HEAD' })).status).toBe(403);
  });

  it('applies the stricter of two overlapping descriptions', async () => {
    expect((await appFor('support').request('/api/things/open')).status).toBe(403);
  });

  it('refuses a role below a prefix where it may call nothing, described or not', async () => {
    for (const path of ['/api/personal', '/api/personal/new', '/api/personal.csv']) {
      expect((await appFor('support').request(path)).status, path).toBe(403);
    }
    expect((await appFor('admin').request('/api/personal/new')).status).toBe(404);
  });

  it('refuses a person without a console-wide role on every session route, even one open to all roles', async () => {
    expect((await appFor(undefined).request('/api/things')).status).toBe(403);
    const refused = await appFor(undefined).request('/api/things/7');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      detail: expect.stringContaining('needs a console-wide role'),
    });
  });

  it('serves an operation for anyone signed in to every role and to a person without a console-wide role', async () => {
    for (const role of ['admin', 'support', undefined] as const) {
      expect((await appFor(role).request('/api/mine')).status, role).toBe(200);
    }
  });

  it('does not serve a route without a description, even to an admin', async () => {
    const response = await appFor('admin').request('/api/things/7/secrets');
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('not described');
    expect((await appFor('admin').request('/api/things', { method: 'POST' })).status).toBe(404);
  });

  it("decides a connection's operation by the role there: old paths are the first connection's", async () => {
    const scoped: ApiModule[] = [
      {
        base: '/api/widgets',
        scope: 'connection',
        tag: { name: 'Widgets', description: 'One connection’s' },
        operations: [
          {
            method: 'get',
            path: '/',
            operationId: 'w',
            summary: 'w',
            access: { session: ['admin', 'support'] },
            responses: answer,
          },
        ],
      },
    ];
    const app = new Hono<AppEnv>();
    app.use('/api/*', async (c, next) => {
      // Support in production (the first connection), nothing in UAT, no console-wide role.
      c.set('user', { username: 'sam', roles: { 'prod-eu': 'support' } });
      await next();
    });
    app.use(
      '/api/*',
      requireDescribedAccess(scoped, (c) => c.text('not described', 404), ['prod-eu', 'uat']),
    );
    for (const path of [
      '/api/widgets',
      '/api/connections/prod-eu/widgets',
      '/api/connections/uat/widgets',
    ]) {
      app.get(path, (c) => c.text('widgets'));
    }
    app.onError((error, c) =>
      error instanceof HttpProblem ? problemResponse(c, error.problem) : c.text('boom', 500),
    );
    expect((await app.request('/api/connections/prod-eu/widgets')).status).toBe(200);
    expect((await app.request('/api/widgets')).status).toBe(200);
    expect((await app.request('/api/connections/uat/widgets')).status).toBe(403);
    const unknown = await app.request('/api/connections/staging/widgets');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ title: 'No such connection' });
  });
});
