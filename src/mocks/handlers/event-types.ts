// The mock's activity-log operation, GET /api/audit/v4/audits/event-types (docs/platform-contract.md),
// answered from the pre-serialised data set.
import { http, type HttpHandler } from 'msw';
import { hasControlCharacters } from '../../shared/filter-values';
import { ACTIVITY_LOG_SCOPE, MOCK_OPERATION_ROUTES } from '../operations';
import type { MockState } from '../state';
import { admitRequest } from './admission';
import { refuseUnauthorized } from './bearer-auth';
import { errorResponse, jsonBytesResponse } from './responses';

/** Path of the event-types operation below the upstream's base URL. */
export const EVENT_TYPES_PATH = MOCK_OPERATION_ROUTES['event-types'].path;

/**
 * Reads an array filter in either wire style, repeated (`modules=a&modules=b`) or comma-separated
 * (`modules=a,b`), or a mix. Splitting on commas is safe because no module or object type name
 * contains one. Empty items (a trailing comma) are ignored.
 */
function readArrayFilter(params: URLSearchParams, name: string): string[] {
  return params
    .getAll(name)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
}

/**
 * `GET {any origin}/api/audit/v4/audits/event-types?modules=…&objectTypes=…`, answering a bare JSON
 * array of EventType. Order of checks: injected faults first (so a test can force a 500 or 429
 * whatever token it holds), then the bearer token and its `ACTIVITY_LOG` scope, then the filters.
 *
 * Filter semantics are our assumption, since the platform's documentation (docs/platform-contract.md) does not show them: values of
 * one filter combine with OR (any of these modules), and the two filters combine with AND.
 */
export function createEventTypesHandler(state: MockState): HttpHandler {
  return http.get(`*${EVENT_TYPES_PATH}`, async ({ request }) => {
    const refused =
      (await admitRequest(state, 'event-types')) ??
      refuseUnauthorized(state, request, ACTIVITY_LOG_SCOPE);
    if (refused) return refused;

    const params = new URL(request.url).searchParams;
    const modules = readArrayFilter(params, 'modules');
    const objectTypes = readArrayFilter(params, 'objectTypes');
    for (const [name, values] of [
      ['modules', modules],
      ['objectTypes', objectTypes],
    ] as const) {
      if (values.some(hasControlCharacters)) {
        return errorResponse(400, `Query parameter ${name} contains control characters`);
      }
    }
    return jsonBytesResponse(state.eventTypes.jsonBytes({ modules, objectTypes }));
  });
}
