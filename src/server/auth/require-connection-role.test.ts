// The guard of connection-scoped routes: an unknown connection is a 404, a known one the person
// has no role in (or not a role the route allows) a 403, and only then the route runs, knowing
// its connection.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { ConnectionRoles, Role } from '../../shared/session';
import type { AppEnv } from '../http/app-env';
import { HttpProblem, problemResponse } from '../http/problem';
import { requireConnectionRole } from './require-connection-role';

/** A connection-scoped route as a person with `roles` (and no console-wide role) calls it. */
function appFor(roles: ConnectionRoles, allowed?: readonly Role[]) {
  return new Hono<AppEnv>()
    .onError((error, c) =>
      error instanceof HttpProblem ? problemResponse(c, error.problem) : c.text('boom', 500),
    )
    .use('*', async (c, next) => {
      c.set('user', { username: 'ann', roles });
      await next();
    })
    .get(
      '/api/connections/:connection/things',
      requireConnectionRole(['default', 'uat'], allowed),
      (c) => c.json({ connection: c.get('connection') }),
    );
}

const ann = { uat: 'admin', default: 'support' } as const;

describe('requireConnectionRole', () => {
  it('answers 404 for a connection that is not configured, without repeating its name', async () => {
    const response = await appFor(ann).request('/api/connections/prod/things');
    expect(response.status).toBe(404);
    const body = (await response.json()) as { type: string; detail: string };
    expect(body.type).toBe('/problems/not-found');
    expect(body.detail).not.toContain('prod');
  });

  it('answers 403 for a configured connection the person has no role in', async () => {
    const response = await appFor({ uat: 'admin' }).request('/api/connections/default/things');
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      type: '/problems/forbidden',
      detail: expect.stringContaining('no role in this connection'),
    });
  });

  it('answers 403 where the role in that connection is not one the route allows', async () => {
    const response = await appFor(ann, ['admin']).request('/api/connections/default/things');
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      detail: expect.stringContaining('The support role cannot use'),
    });
  });

  it('serves a connection the person has a suitable role in, naming it on the context', async () => {
    const response = await appFor(ann, ['admin']).request('/api/connections/uat/things');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ connection: 'uat' });
    expect((await appFor(ann).request('/api/connections/default/things')).status).toBe(200);
  });

  it('does not take a name inherited from Object for a connection the person has a role in', async () => {
    const response = await appFor(ann).request('/api/connections/constructor/things');
    expect(response.status).toBe(404);
  });
});
