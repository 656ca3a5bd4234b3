// The token endpoint as an OAuth client sees it, with MSW intercepting this process's fetch.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockUpstream } from '../node';
import { DEMO_CLIENT_FIELDS, MOCK_BASE, postTokenForm } from '../test-support/mock-token';
import { TOKEN_PATH } from './auth';
import { EVENT_TYPES_PATH } from './event-types';

let clock = Date.UTC(2025, 0, 1);
const upstream = createMockUpstream({ now: () => clock });

beforeAll(() => upstream.listen());
afterEach(() => upstream.state.reset());
afterAll(() => upstream.close());

const form = postTokenForm;

function basic(id: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${btoa(`${id}:${secret}`)}` };
}

function listEventTypes(accessToken: string) {
  return fetch(`${MOCK_BASE}${EVENT_TYPES_PATH}`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
}

describe('POST /api/access/v1/oauth/token', () => {
  it('issues a bearer token for client credentials in the form body', async () => {
    const response = await form({
      grant_type: 'client_credentials',
      ...DEMO_CLIENT_FIELDS,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    expect(body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'ACTIVITY_LOG',
    });
    expect(body.access_token.length).toBeGreaterThanOrEqual(32);
    expect((await listEventTypes(body.access_token)).status).toBe(200);
  });

  it('issues a token for the vendor document’s multipart form', async () => {
    const body = new FormData();
    body.set('grant_type', 'client_credentials');
    body.set('client_id', DEMO_CLIENT_FIELDS.client_id);
    body.set('client_secret', DEMO_CLIENT_FIELDS.client_secret);
    const response = await fetch(`${MOCK_BASE}${TOKEN_PATH}`, { method: 'POST', body });
    expect(response.status).toBe(200);
    expect((await response.json()).access_token).toEqual(expect.any(String));
  });

  it('refuses a body in neither form encoding with 400 invalid_request', async () => {
    const response = await fetch(`${MOCK_BASE}${TOKEN_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', ...DEMO_CLIENT_FIELDS }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('accepts HTTP Basic client authentication', async () => {
    const response = await form(
      { grant_type: 'client_credentials', scope: 'ACTIVITY_LOG' },
      basic('demo-client', 'demo-secret'),
    );
    expect(response.status).toBe(200);
    expect((await response.json()).scope).toBe('ACTIVITY_LOG');
  });

  it('issues a different token each time', async () => {
    const fields = {
      grant_type: 'client_credentials',
      ...DEMO_CLIENT_FIELDS,
    };
    const first = await (await form(fields)).json();
    const second = await (await form(fields)).json();
    expect(first.access_token).not.toBe(second.access_token);
    expect(upstream.state.stats()).toMatchObject({ tokenRequests: 2, tokensIssued: 2 });
  });

  it('refuses a wrong secret with 401 invalid_client', async () => {
    const response = await form({
      grant_type: 'client_credentials',
      ...DEMO_CLIENT_FIELDS,
      client_secret: 'wrong',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
    expect(upstream.state.stats().tokensIssued).toBe(0);
  });

  it('challenges a wrong Basic secret with WWW-Authenticate: Basic', async () => {
    const response = await form(
      { grant_type: 'client_credentials' },
      basic('demo-client', 'wrong'),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses missing credentials with 401 invalid_client', async () => {
    const response = await form({ grant_type: 'client_credentials' });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses another grant type with 400 unsupported_grant_type', async () => {
    const response = await form({
      grant_type: 'password',
      ...DEMO_CLIENT_FIELDS,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('refuses a missing grant type or a JSON body with 400 invalid_request', async () => {
    const missing = await form(DEMO_CLIENT_FIELDS);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'invalid_request' });

    const json = await fetch(`${MOCK_BASE}${TOKEN_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        ...DEMO_CLIENT_FIELDS,
      }),
    });
    expect(json.status).toBe(400);
    expect(json.headers.get('cache-control')).toBe('no-store');
    expect(await json.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses two client authentication methods at once (RFC 6749 §2.3)', async () => {
    const response = await form(
      { grant_type: 'client_credentials', client_secret: 'demo-secret' },
      basic('demo-client', 'demo-secret'),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('grants only known scopes, and refuses a request for unknown ones only', async () => {
    const partly = await form({
      grant_type: 'client_credentials',
      scope: 'ACTIVITY_LOG SOMETHING_ELSE',
      ...DEMO_CLIENT_FIELDS,
    });
    expect((await partly.json()).scope).toBe('ACTIVITY_LOG');

    const unknown = await form({
      grant_type: 'client_credentials',
      scope: 'SOMETHING_ELSE',
      ...DEMO_CLIENT_FIELDS,
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: 'invalid_scope' });
  });

  it('lets a token expire on the injected clock, after which the API answers 401', async () => {
    const response = await form(
      { grant_type: 'client_credentials' },
      basic('demo-client', 'demo-secret'),
    );
    const { access_token: accessToken, expires_in: expiresIn } = await response.json();

    clock += (expiresIn - 1) * 1000;
    expect((await listEventTypes(accessToken)).status).toBe(200);

    clock += 1000;
    const expired = await listEventTypes(accessToken);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });
});
