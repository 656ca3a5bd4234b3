// Response helpers shared by the mock's handlers, so every error the mock sends has one shape.
import { STATUS_CODES } from 'node:http';
import { HttpResponse } from 'msw';

/**
 * The body of the mock's non-OAuth errors. The platform's documentation (docs/platform-contract.md) does not show the upstream's error
 * body, so the mock uses a common gateway shape; clients must rely on the status, not the body.
 */
export interface MockErrorBody {
  readonly status: number;
  readonly error: string;
  readonly message: string;
}

/**
 * A 200 JSON response from already-serialised bytes (the cached event-type answers). A plain
 * Response, not MSW's HttpResponse: MSW accepts either, and on this hot path HttpResponse's extra
 * init handling costs about as much as the rest of the handler.
 */
export function jsonBytesResponse(bytes: Uint8Array<ArrayBuffer>): Response {
  return new Response(bytes, { status: 200, headers: { 'content-type': 'application/json' } });
}

/** An error response with a {@link MockErrorBody}. */
export function errorResponse(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  const body: MockErrorBody = { status, error: STATUS_CODES[status] ?? 'Error', message };
  return HttpResponse.json(body, { status, headers });
}

/**
 * An error response whose body is a JSON string, the shape the v4 documents give their 401, 403
 * and 404 (`application/json`, `type: string`).
 */
export function jsonStringErrorResponse(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(message), {
    status,
    headers: { ...headers, 'content-type': 'application/json' },
  });
}
