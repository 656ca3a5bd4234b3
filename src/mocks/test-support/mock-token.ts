// The mock's handler tests reach its token endpoint as the console's upstream client does: one
// form POST, with the demo client's credentials unless a test says otherwise (tests only).
import { TOKEN_PATH } from '../handlers/auth';

/** The origin the in-process mock (createMockUpstream) answers for. */
export const MOCK_BASE = 'https://upstream.example.test';

/** The demo client's credentials as token-request form fields. */
export const DEMO_CLIENT_FIELDS = { client_id: 'demo-client', client_secret: 'demo-secret' };

/** POSTs `fields` form-encoded to the mock's token endpoint, with any further `headers`. */
export function postTokenForm(
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${MOCK_BASE}${TOKEN_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });
}

/** A bearer token for the demo client, for `scope` when given; throws when none is issued. */
export async function demoToken(scope?: string): Promise<string> {
  const response = await postTokenForm({
    grant_type: 'client_credentials',
    ...DEMO_CLIENT_FIELDS,
    ...(scope ? { scope } : {}),
  });
  if (response.status !== 200) throw new Error(`the token request answered ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}
