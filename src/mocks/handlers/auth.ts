// The mock's OAuth 2.0 token endpoint: the client-credentials grant of RFC 6749 §4.4, the only
// flow the platform documents (docs/platform-contract.md). The request is the vendor token
// document's multipart form (or RFC 6749's urlencoded one); errors follow the RFC.
import { http, HttpResponse, type HttpHandler } from 'msw';
import { ACTIVITY_LOG_SCOPE, MOCK_OPERATION_ROUTES } from '../operations';
import type { MockState } from '../state';
import { admitRequest } from './admission';

/** Path of the token endpoint below the upstream's base URL (docs/platform-contract.md). */
export const TOKEN_PATH = MOCK_OPERATION_ROUTES.token.path;

/** The two form encodings a token request may use. */
const FORM_CONTENT_TYPE =
  /^(application\/x-www-form-urlencoded\s*(;|$)|multipart\/form-data\s*;\s*boundary=)/i;

/** A form field's text value; a file part counts as absent. */
function field(form: FormData, name: string): string | null {
  const value = form.get(name);
  return typeof value === 'string' ? value : null;
}

/** The success body of RFC 6749 §5.1. */
export interface TokenResponseBody {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  readonly scope: string;
}

type OAuthError = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope';

// RFC 6749 §5.1/§5.2: token responses, errors included, must not be cached.
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

function oauthError(
  status: 400 | 401,
  error: OAuthError,
  description: string,
  headers: Record<string, string> = {},
): Response {
  return HttpResponse.json(
    { error, error_description: description },
    { status, headers: { ...NO_STORE, ...headers } },
  );
}

type BasicCredentials = { id: string; secret: string } | 'malformed' | undefined;

// RFC 6749 §2.3.1: id and secret are form-urlencoded, joined by ':', then base64-encoded.
function readBasicCredentials(authorization: string | null): BasicCredentials {
  if (!authorization) return undefined;
  const match = /^Basic +([A-Za-z0-9+/]+=*)$/i.exec(authorization.trim());
  if (!match?.[1]) return 'malformed';
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(atob(match[1]), (char) => char.charCodeAt(0)),
    );
  } catch {
    return 'malformed';
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  const formDecode = (part: string): string => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

/**
 * `POST {any origin}/api/access/v1/oauth/token`. Accepts `grant_type=client_credentials` with client
 * credentials in the form body or in HTTP Basic auth (not both), and an optional space-separated
 * `scope`. Grants the requested scopes the mock knows (default `ACTIVITY_LOG`); a request naming
 * only unknown scopes gets `invalid_scope`.
 */
export function createTokenHandler(state: MockState): HttpHandler {
  return http.post(`*${TOKEN_PATH}`, async ({ request }) => {
    const refused = await admitRequest(state, 'token');
    if (refused) return refused;

    // The vendor's token document declares multipart/form-data; RFC 6749's urlencoded form is
    // taken too, so OAUTH_TOKEN_ENCODING=form works against the mock. Anything else is refused
    // with a 400, a status the document declares (it declares no 415).
    const contentType = request.headers.get('content-type') ?? '';
    if (!FORM_CONTENT_TYPE.test(contentType)) {
      return oauthError(
        400,
        'invalid_request',
        'Send multipart/form-data or application/x-www-form-urlencoded',
      );
    }
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      return oauthError(400, 'invalid_request', 'The form could not be read');
    }
    // RFC 6749 §3.2: request parameters must not be included more than once.
    for (const name of ['grant_type', 'scope', 'client_id', 'client_secret']) {
      if (form.getAll(name).length > 1) {
        return oauthError(400, 'invalid_request', `Parameter ${name} is repeated`);
      }
    }
    const grantType = field(form, 'grant_type');
    if (!grantType) return oauthError(400, 'invalid_request', 'grant_type is required');
    if (grantType !== 'client_credentials') {
      return oauthError(400, 'unsupported_grant_type', 'Only client_credentials is supported');
    }

    const basic = readBasicCredentials(request.headers.get('authorization'));
    const basicChallenge = { 'www-authenticate': 'Basic realm="oauth"' };
    if (basic === 'malformed') {
      return oauthError(401, 'invalid_client', 'Malformed Basic credentials', basicChallenge);
    }
    // RFC 6749 §2.3: a client must not use more than one authentication method per request.
    if (basic && form.has('client_secret')) {
      return oauthError(400, 'invalid_request', 'Use either Basic auth or form credentials');
    }
    const credentials = basic ?? {
      id: field(form, 'client_id') ?? '',
      secret: field(form, 'client_secret') ?? '',
    };
    if (credentials.id !== state.clientId || credentials.secret !== state.clientSecret) {
      return oauthError(
        401,
        'invalid_client',
        'Client authentication failed',
        basic ? basicChallenge : {},
      );
    }

    const requested = (field(form, 'scope') ?? '').split(' ').filter((scope) => scope.length > 0);
    const granted =
      requested.length === 0
        ? state.knownScopes.includes(ACTIVITY_LOG_SCOPE)
          ? [ACTIVITY_LOG_SCOPE]
          : state.knownScopes.slice(0, 1)
        : [...new Set(requested)].filter((scope) => state.knownScopes.includes(scope));
    if (granted.length === 0) {
      return oauthError(400, 'invalid_scope', 'None of the requested scopes is known');
    }

    const token = state.issueToken(granted);
    const body: TokenResponseBody = {
      access_token: token.accessToken,
      token_type: 'Bearer',
      expires_in: state.tokenTtlSeconds,
      scope: granted.join(' '),
    };
    return HttpResponse.json(body, { headers: NO_STORE });
  });
}
