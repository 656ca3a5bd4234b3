// Where a problem's `type` leads: a page explaining it on the console (no sign-in) and an anchor in
// docs/problems.md for every registered type; the usual API description addresses and unknown API
// routes answer problem+json, never the app's HTML page; session 401s carry a challenge.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPES } from '../../shared/problem';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';
import { PROBLEM_EXPLANATIONS } from './problem-explanations';

const PAGE = '<!doctype html><title>Privacy API Console</title><div id="root"></div>';
let dir: string;
let h: BffHarness;

beforeAll(async () => {
  // A built SPA, so that any path the console does not know would get its page with a 200.
  dir = mkdtempSync(join(tmpdir(), 'problem-pages-'));
  writeFileSync(join(dir, 'index.html'), PAGE);
  h = await startBffHarness({ staticDir: dir });
}, 30_000);
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

async function expectProblem(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe(PROBLEM_CONTENT_TYPE);
  const body = await response.text();
  expect(body).not.toContain('<div id="root">');
  return JSON.parse(body) as { type: string; detail?: string };
}

describe('problem type pages', () => {
  it('explain every registered type at its own URI, signed out, without the app page', async () => {
    for (const [key, type] of Object.entries(PROBLEM_TYPES)) {
      const explanation = PROBLEM_EXPLANATIONS[key as keyof typeof PROBLEM_TYPES];
      const response = await h.app.request(type);
      expect(response.status, type).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html, type).not.toContain('<div id="root">');
      expect(html).toContain(`<h1>${explanation.title}</h1>`);
      expect(html).toContain('What happened');
      expect(html).toContain('What to do');
    }
  });

  it('are styled by a stylesheet of their own, which the content security policy allows', async () => {
    const html = await (await h.app.request(PROBLEM_TYPES.consoleBusy)).text();
    const href = /<link rel="stylesheet" href="([^"]+)">/.exec(html)?.[1];
    expect(href).toBe('/problems/problems.css');
    const css = await h.app.request(href!);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toContain('max-width');
    const policy = (await h.app.request(PROBLEM_TYPES.consoleBusy)).headers.get(
      'content-security-policy',
    );
    expect(policy).toMatch(/style-src 'self'/);
  });

  it('list every type at /problems', async () => {
    const html = await (await h.app.request('/problems')).text();
    for (const type of Object.values(PROBLEM_TYPES)) expect(html).toContain(`href="${type}"`);
  });

  it('have an anchor in docs/problems.md for every type', () => {
    const markdown = readFileSync(new URL('../../../docs/problems.md', import.meta.url), 'utf8');
    for (const type of Object.values(PROBLEM_TYPES)) {
      expect(markdown).toContain(`\n## ${type.slice('/problems/'.length)}\n`);
    }
  });

  it('answer an unknown type with a 404 problem', async () => {
    await expectProblem(await h.app.request('/problems/no-such-thing'), 404);
  });

  it.each(['/problems/a/b', '/problems/signed-out/', '/problems/', '/problems/signed-out/x'])(
    'answer %s, no problem type’s URI, with a 404 problem rather than the app page',
    async (path) => {
      const problem = await expectProblem(await h.app.request(path), 404);
      expect(problem.type).toBe(PROBLEM_TYPES.notFound);
    },
  );
});

describe('API description addresses and unknown API routes', () => {
  it('are 404 problems naming where the description is, not the app page', async () => {
    for (const path of ['/openapi.json', '/swagger.json', '/docs', '/api-docs', '/swagger-ui/']) {
      const problem = await expectProblem(await h.app.request(path), 404);
      expect(problem.type).toBe(PROBLEM_TYPES.notFound);
      expect(problem.detail).toContain('/api/openapi.json');
    }
  });

  it('under /api: a 404 problem signed in, a 401 problem signed out', async () => {
    for (const path of ['/api/openapi.yaml', '/api/docs', '/api/swagger.json', '/api/v1/openapi']) {
      const signedIn = await expectProblem(await h.request(path), 404);
      expect(signedIn.type).toBe(PROBLEM_TYPES.notFound);
      await expectProblem(await h.request(path, {}, { as: null }), 401);
    }
  });

  it('leave the app’s own client routes to the app', async () => {
    const response = await h.app.request('/event-types');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(PAGE);
  });
});

describe('session 401s', () => {
  it('carry a WWW-Authenticate challenge: signed out, and a failed sign-in', async () => {
    const signedOut = await h.request('/api/health', {}, { as: null });
    expect(signedOut.headers.get('www-authenticate')).toBe('Cookie realm="console"');
    expect((await expectProblem(signedOut, 401)).type).toBe(PROBLEM_TYPES.signedOut);
    const failed = await h.app.request('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'not-the-password' }),
    });
    expect(failed.headers.get('www-authenticate')).toBe('Cookie realm="console"');
    expect((await expectProblem(failed, 401)).type).toBe(PROBLEM_TYPES.signInFailed);
  });
});
