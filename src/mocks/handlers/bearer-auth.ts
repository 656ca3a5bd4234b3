// Bearer-token check of the mock's API operations, per RFC 6750 §3: 401 for a missing, unknown or
// expired token, 403 for a token without the operation's scope (when the operation needs one).
import type { MockState } from '../state';
import { errorResponse } from './responses';

/** Builds a refusal: the mock's common error body, or the shape an operation's document gives. */
export type ErrorBody = (
  status: number,
  message: string,
  headers: Record<string, string>,
) => Response;

const REALM = 'privacy-api';
// RFC 6750 §2.1 b64token after the scheme; the scheme itself is case-insensitive (RFC 9110 §11.1).
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * Checks the request's `Authorization: Bearer` token against `state` and `requiredScope` (`null`:
 * any valid token will do).
 * Returns the refusal to send, or `undefined` when the request may proceed. A request with no
 * bearer token gets a challenge without an error code, as RFC 6750 §3.1 asks.
 */
export function refuseUnauthorized(
  state: MockState,
  request: Request,
  requiredScope: string | null,
  refusal: ErrorBody = errorResponse,
): Response | undefined {
  const match = BEARER.exec(request.headers.get('authorization') ?? '');
  if (!match?.[1]) {
    return refusal(401, 'A bearer access token is required', {
      'www-authenticate': `Bearer realm="${REALM}"`,
    });
  }
  const check = state.checkToken(match[1]);
  if (!check.ok) {
    const description =
      check.reason === 'expired' ? 'The access token expired' : 'The access token is not valid';
    return refusal(401, description, {
      'www-authenticate': `Bearer realm="${REALM}", error="invalid_token", error_description="${description}"`,
    });
  }
  if (requiredScope !== null && !check.token.scopes.includes(requiredScope)) {
    return refusal(403, `The access token lacks the ${requiredScope} scope`, {
      'www-authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${requiredScope}"`,
    });
  }
  return undefined;
}
