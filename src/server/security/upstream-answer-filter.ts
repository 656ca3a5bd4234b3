// A last check on every upstream answer before the BFF reads it: credentials the upstream sends
// back (Set-Cookie, WWW-Authenticate, anything echoing our bearer token) are dropped, and an answer
// whose body repeats the token is refused, so no route can pass a token on to a browser.
import type { Logger } from '../observability/logger';
import type { Transport, TransportResponse } from '../upstream/http-transport';
import { invalidUpstreamAnswerProblem } from '../upstream/upstream-problems';

/** Upstream answer headers the BFF never has a reason to read. */
const DROPPED_HEADERS = new Set([
  'set-cookie',
  'set-cookie2',
  'www-authenticate',
  'proxy-authenticate',
  'authorization',
  'proxy-authorization',
  'location',
]);

function credentialOf(authorization: string | undefined): string | undefined {
  const credential = authorization?.split(' ', 2)[1];
  // Too short to be a real credential: searching for it would match by chance.
  return credential && credential.length >= 8 ? credential : undefined;
}

/** Wraps `transport` so that upstream answers carry no credentials onward. */
export function filterUpstreamAnswers(transport: Transport, logger: Logger): Transport {
  return async (request) => {
    const response = await transport(request);
    const credential = credentialOf(request.headers.authorization);
    const headers: TransportResponse['headers'] = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (DROPPED_HEADERS.has(name.toLowerCase())) continue;
      const values = Array.isArray(value) ? value : [value ?? ''];
      if (credential && values.some((v) => v.includes(credential))) continue;
      headers[name] = value;
    }
    // Searched in the bytes when there are any: a large answer is never decoded on this thread.
    if (credential && (response.bytes ?? response.body).includes(credential)) {
      logger.error(
        { upstreamStatus: response.status, path: request.url.pathname },
        'upstream answer repeated the access token; discarded',
      );
      throw invalidUpstreamAnswerProblem();
    }
    // The answer is this call's own object; a copy would decode its text (a getter) for nothing.
    response.headers = headers;
    return response;
  };
}
