// The mock's data-subject operations, v4 and legacy, as the platform contract documents them: one
// handler per catalog operation, reading each parameter only where the catalog says it travels. A
// parameter sent anywhere else counts as missing (400), as a real service would treat it; a date
// range longer than documented is a 400 too, and "not found" is the documented JSON-string 404.
import { http, type HttpHandler } from 'msw';
import type {
  DataSubjectOperation,
  DataSubjectOperationId,
} from '../../shared/data-subject-operations';
import { contractOperation } from '../../shared/data-subject-contract';
import { paramValueProblem, parseIsoDateTime } from '../../shared/data-subject-validation';
import { answerLookup } from '../data/data-subject-answers';
import type { MockOperation } from '../operations';
import type { MockState } from '../state';
import { admitRequest } from './admission';
import { refuseUnauthorized } from './bearer-auth';
import { errorResponse, jsonStringErrorResponse } from './responses';

const WHERE = { header: 'header', query: 'query parameter', path: 'path segment' } as const;

/** `/v4/x/{name}` -> `/v4/x/:name`, MSW's path syntax. */
function mswPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

function handlerFor(state: MockState, operation: DataSubjectOperation): HttpHandler {
  return http.get(`*${mswPath(operation.path)}`, async ({ request, params }) => {
    // The documents name the CONSENT scopes; the mock's tokens carry no scopes for them, so any
    // valid token is accepted. The v4 documents (those with the not-found answer) give 401 and
    // 403 a JSON-string body; the legacy ones give none, so the common body will do.
    const refused =
      (await admitRequest(state, operation.id as MockOperation)) ??
      refuseUnauthorized(
        state,
        request,
        null,
        contractOperation(operation.operationId)?.notFound ? jsonStringErrorResponse : undefined,
      );
    if (refused) return refused;

    const url = new URL(request.url);
    const read = (location: string, wireName: string): string | undefined => {
      if (location === 'header') return request.headers.get(wireName) ?? undefined;
      if (location === 'query') return url.searchParams.get(wireName) ?? undefined;
      const value = params[wireName];
      return typeof value === 'string' ? value : undefined;
    };
    const values: Record<string, string> = {};
    const headers: Record<string, string> = {};
    for (const param of operation.params) {
      const value = read(param.location, param.wireName);
      if (param.location === 'header' && value !== undefined) {
        headers[param.wireName.toLowerCase()] = value;
      }
      if (value === undefined || value === '') {
        if (param.required) {
          return errorResponse(400, `Missing required ${WHERE[param.location]} ${param.wireName}`);
        }
        continue;
      }
      const problem = paramValueProblem(param, value);
      if (problem)
        return errorResponse(400, `${WHERE[param.location]} ${param.wireName} ${problem}`);
      values[param.name] = value;
    }
    const range = operation.dateRange;
    if (range && values[range.from] !== undefined && values[range.to] !== undefined) {
      const span = parseIsoDateTime(values[range.to]!)! - parseIsoDateTime(values[range.from]!)!;
      if (span < 0 || span > range.maxDays * 86_400_000) {
        return errorResponse(
          400,
          `${range.from} to ${range.to} must be a range of at most ${range.maxDays} days`,
        );
      }
    }
    const continuation = operation.continuation
      ? read(operation.continuation.location, operation.continuation.wireName)
      : undefined;
    if (continuation !== undefined && operation.continuation?.location === 'header') {
      headers[operation.continuation.wireName.toLowerCase()] = continuation;
    }
    state.dataSubjects.noteReceived({
      operation: operation.id,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
    });

    const answer = answerLookup(
      operation.id as DataSubjectOperationId,
      state.dataSubjects.data,
      values,
      continuation || undefined,
    );
    if (answer.status === 400) return errorResponse(400, answer.message);
    // The documented not-found answer is `application/json` whose value is a string.
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
}

/** One handler per data-subject operation of the state's catalog. */
export function createDataSubjectHandlers(state: MockState): HttpHandler[] {
  return state.dataSubjects.operations.map((operation) => handlerFor(state, operation));
}
