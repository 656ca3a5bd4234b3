// The first step of every mock operation: count the request and apply an injected fault (or,
// later, a rate limit) before anything else, so a test can force e.g. a 500 or a 429 regardless
// of the token it sends.
import type { MockOperation } from '../operations';
import type { MockState } from '../state';
import { errorResponse } from './responses';

/**
 * Admits one request to `operation`. Resolves to the response that replaces the normal answer
 * (a fault), or to `undefined` when the handler should go on; an injected delay is waited out
 * first either way, and a 2xx fault means "slow, then normal".
 */
export async function admitRequest(
  state: MockState,
  operation: MockOperation,
): Promise<Response | undefined> {
  const hit = state.admit(operation);
  if (!hit) return undefined;
  if (hit.delayMs > 0) await state.sleep(hit.delayMs);
  if (hit.status < 300) return undefined;
  const message =
    hit.status === 429
      ? 'Request limit exceeded; retry after the Retry-After interval'
      : `Simulated upstream failure of ${operation}`;
  return errorResponse(hit.status, message, { ...hit.headers });
}
