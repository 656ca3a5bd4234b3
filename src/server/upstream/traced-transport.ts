// Every call to the platform as a client span named by its operation, carrying `traceparent` so
// the platform's own trace continues the console's. A span of our own around our own call rather
// than the http/undici instrumentations: those patch modules as they are loaded (which the esbuild
// bundle and ESM imports do not go through without a loader hook), and they record the full URL,
// whose path and query can hold a person's identifier.
import { SpanKind } from '@opentelemetry/api';
import { traceStep, withTraceHeaders } from '../observability/traced-steps';
import type { Transport } from './http-transport';

/**
 * `transport` with a "platform call" span per call: the operation id (`operationId`, else the
 * request's), the method, the answer's status and, on a 429, the platform's
 * `ot-ratelimit-event-id` (an incident reference, nothing personal).
 */
export function traceTransport(transport: Transport, operationId?: string): Transport {
  return (request) => {
    const operation = operationId ?? request.operationId ?? 'default';
    return traceStep(
      'platform call',
      {
        'console.operation_id': operation,
        'http.request.method': request.method,
        'server.address': request.url.hostname,
      },
      async (span) => {
        const response = await transport({
          ...request,
          headers: withTraceHeaders(request.headers),
        });
        span.setAttribute('http.response.status_code', response.status);
        if (response.status === 429) {
          const eventId = response.headers['ot-ratelimit-event-id'];
          const id = Array.isArray(eventId) ? eventId[0] : eventId;
          // The platform's reference for the incident, kept only in its expected shape.
          if (id && /^[\w.:-]{1,128}$/.test(id)) span.setAttribute('ot_ratelimit.event_id', id);
        }
        return response;
      },
      SpanKind.CLIENT,
    );
  };
}
