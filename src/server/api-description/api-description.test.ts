// The console's API description: the committed copy is current, it names every /api route and no
// other, Redocly's linter finds nothing in it, it is served to signed-in users only, and real
// answers of every GET route match it (checked by ajv, a standard JSON Schema validator).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDENTIFIERS } from '../../shared/data-subject-demo';
import { RoleSchema } from '../../shared/session';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';
import {
  API_DOCUMENT,
  describedRoutes,
  registeredApiRoutes,
  undocumentedAnswer,
  concretePath,
} from '../test-support/openapi-answers';
import { generatedApiDocs } from './generated-docs';
import { withPurpose } from '../test-support/lookup-purpose';

const run = promisify(execFile);
const REGENERATE = 'run `npm run openapi` and commit docs/openapi.json and docs/problems.md';

let h: BffHarness;
beforeAll(async () => {
  // Demo mode's extras too: the document describes every route any mode serves.
  h = await startBffHarness({ mockRateLimits: true, demoControls: true });
}, 30_000);
afterAll(() => h.close());

describe('the committed description', () => {
  // Generating loads every route module: a busy machine takes several seconds, more than the
  // default 5, without anything being wrong.
  it('is what the code generates', async () => {
    for (const file of await generatedApiDocs()) {
      const committed = readFileSync(file.path, 'utf8');
      expect(committed === file.text, `${file.path} is out of date: ${REGENERATE}`).toBe(true);
    }
  }, 60_000);

  it('passes Redocly’s linter with its recommended rules: no errors, no warnings', async () => {
    const { stdout } = await run(
      'node_modules/.bin/redocly',
      ['lint', 'docs/openapi.json', '--format=json'],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});

describe('coverage', () => {
  it('describes every /api route the app registers, and none it does not', () => {
    const registered = registeredApiRoutes(h.app);
    const described = describedRoutes(API_DOCUMENT);
    expect([...registered].filter((route) => !described.has(route))).toEqual([]);
    expect([...described].filter((route) => !registered.has(route))).toEqual([]);
    expect(registered.size).toBeGreaterThanOrEqual(39);
  });

  it('notices a route added without a description', () => {
    const app = new Hono();
    app.get('/api/health', (c) => c.text('ok'));
    app.post('/api/audit-trail/checkpoints', (c) => c.text('new'));
    const described = describedRoutes(API_DOCUMENT);
    expect([...registeredApiRoutes(app)].filter((route) => !described.has(route))).toEqual([
      'post /api/audit-trail/checkpoints',
    ]);
  });
});

describe('GET /api/openapi.json', () => {
  it('serves the document to every signed-in role', async () => {
    for (const as of RoleSchema.options) {
      const response = await h.request('/api/openapi.json', {}, { as });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(JSON.parse(JSON.stringify(API_DOCUMENT)));
    }
  });

  it('is a 401 problem with a challenge when signed out', async () => {
    const response = await h.request('/api/openapi.json', {}, { as: null });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Cookie realm="console"');
    expect(await undocumentedAnswer('GET', '/api/openapi.json', response)).toBeUndefined();
  });
});

describe('real answers match the document', () => {
  const getRoutes = () =>
    Object.entries(API_DOCUMENT.paths).filter(([, operations]) => operations.get !== undefined);

  it('the check refuses what the document does not allow', async () => {
    const health = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    expect(await undocumentedAnswer('GET', '/api/health', health({ store: 'fine' }))).toMatch(
      /^GET \/api\/health 200: body/,
    );
    expect(await undocumentedAnswer('GET', '/api/health', health({}, 404))).toMatch(
      /media type application\/json is not documented/,
    );
    expect(await undocumentedAnswer('GET', '/api/nothing', health({}))).toMatch(
      /not in the document/,
    );
  });

  it('every GET route, as an admin in demo mode', async () => {
    const mismatches: string[] = [];
    // Something in the lists first: an incident (a provoked 429) and an integration.
    const seeds: [string, RequestInit][] = [
      ['/api/demo-controls', { method: 'POST', body: '{"scenario":"module-quota"}' }],
      ['/api/integrations', { method: 'POST', body: '{"name":"Billing sync","owner":"billing"}' }],
      // The incident stays; the block ends, so the event types answer again.
      ['/api/demo-controls/reset', { method: 'POST' }],
    ];
    for (const [path, init] of seeds) {
      const response = await h.request(path, {
        ...init,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(response.status, path).toBeLessThan(300);
      const mismatch = await undocumentedAnswer('POST', path, response);
      if (mismatch) mismatches.push(mismatch);
    }
    for (const [template] of getRoutes()) {
      // Path parameters get an id nothing has: the documented 404 problem is checked then.
      const path = concretePath(template, '0190a8e2-1b2c-7d3e-8f40-123456789abc');
      const response = await h.request(path);
      expect(response.status, path).toBeLessThan(500);
      const mismatch = await undocumentedAnswer('GET', path, response);
      if (mismatch) mismatches.push(mismatch);
    }
    expect(mismatches).toEqual([]);
  }, 60_000);

  it('roles: support is refused every operation documented for admins only, and reads the rest', async () => {
    for (const [template, operations] of Object.entries(API_DOCUMENT.paths)) {
      const path = concretePath(template, '0190a8e2-1b2c-7d3e-8f40-123456789abc');
      for (const [method, operation] of Object.entries(operations)) {
        const roles = operation['x-roles'] as string[] | undefined;
        if (!roles) continue; // signing in and integration reports: no session role
        if (roles.includes('support') && (method !== 'get' || template.includes('{'))) continue;
        const response = await h.request(path, { method: method.toUpperCase() }, { as: 'support' });
        await response.body?.cancel();
        const expected = roles.includes('support') ? 200 : 403;
        expect(response.status, `${method} ${template}`).toBe(expected);
      }
    }
  }, 60_000);

  it('changes too: destinations, thresholds, integrations, audit exports, signing out', async () => {
    const mismatches: string[] = [];
    const call = async <Answer = unknown>(
      method: string,
      path: string,
      body?: unknown,
      cookie?: string,
    ): Promise<Answer> => {
      const response = await h.request(path, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(cookie ? { Cookie: cookie } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(response.status, `${method} ${path}`).toBeLessThan(300);
      const json: unknown = response.headers.get('content-type')?.includes('json')
        ? await response.clone().json()
        : undefined;
      const mismatch = await undocumentedAnswer(method, path, response);
      if (mismatch) mismatches.push(mismatch);
      return json as Answer;
    };
    const created = await call<{ destination: { id: string } }>(
      'POST',
      '/api/alerts/destinations',
      {
        name: 'On-call',
        kind: 'webhook',
        url: 'https://alerts.example.com/hooks/abc123',
        events: ['incident.new'],
      },
    );
    const destination = `/api/alerts/destinations/${created.destination.id}`;
    await call('PATCH', destination, { enabled: false });
    await call('GET', `${destination}/deliveries`);
    await call('DELETE', destination);
    const rules = await call<{ rules: { id: string }[] }>('GET', '/api/rate-limits/rules');
    await call('PUT', `/api/alerts/thresholds/${rules.rules[0]!.id}/MINUTE`, { percent: 70 });
    const issued = await call<{ integration: { id: string } }>('POST', '/api/integrations', {
      name: 'Nightly export',
    });
    const integration = `/api/integrations/${issued.integration.id}`;
    const rotated = await call<{ key: string }>('POST', `${integration}/rotate`);
    const report = await h.app.request('/api/integrations/reports', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${rotated.key}` },
      body: JSON.stringify({
        minutes: [
          { minute: new Date().toISOString(), method: 'GET', path: '/api/x/v1/y', requests: 3 },
        ],
      }),
    });
    expect(report.status).toBe(202);
    const reportMismatch = await undocumentedAnswer('POST', '/api/integrations/reports', report);
    if (reportMismatch) mismatches.push(reportMismatch);
    await call('POST', `${integration}/revoke`);
    // A lookup of personal data, so the trail, its search and its export hold a record.
    await call(
      'POST',
      '/api/data-subjects/lookups',
      withPurpose({ operation: 'v4-details', params: { identifier: DEMO_IDENTIFIERS[0] } }),
    );
    const found = await call<{ items: unknown[] }>('POST', '/api/audit-trail/search', {
      identifier: DEMO_IDENTIFIERS[0],
    });
    expect(found.items).toHaveLength(1);
    await call('GET', '/api/audit-trail');
    await call('POST', '/api/audit-trail/verify');
    const exported = await h.request('/api/audit-trail/export', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ format: 'json', filters: {} }),
    });
    const exportId = exported.headers.get('x-export-id');
    await exported.clone().text(); // read to its end: the signature is written then
    const exportMismatch = await undocumentedAnswer('POST', '/api/audit-trail/export', exported);
    if (exportMismatch) mismatches.push(exportMismatch);
    await call('GET', `/api/audit-trail/exports/${exportId}/signature`);
    await call('DELETE', '/api/rate-limits/reported-limits');
    await call('DELETE', '/api/session', undefined, await h.signIn('support'));
    expect(mismatches).toEqual([]);
  }, 60_000);

  it('problem answers too: a bad query, a sign-in and a missing resource', async () => {
    const checks: [string, string, RequestInit?][] = [
      ['GET', '/api/rate-limits/incidents?limit=0'],
      ['GET', '/api/audit-trail?color=blue'],
      [
        'POST',
        '/api/session',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: 'wrong' }),
        },
      ],
      ['POST', '/api/integrations/0190a8e2-1b2c-7d3e-8f40-123456789abc/revoke', { method: 'POST' }],
      ['POST', '/api/demo-controls', { method: 'POST', body: '{"scenario":"server-error"}' }],
    ];
    for (const [method, path, init] of checks) {
      const response = await h.request(path, init ?? {});
      expect(await undocumentedAnswer(method, path, response)).toBeUndefined();
    }
  }, 60_000);
});
