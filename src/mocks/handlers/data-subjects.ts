// The mock's data-subject operations, v4 and legacy (upstream-api.md §4.2, §4.3): one handler per
// catalog operation, reading each parameter only where the catalog says it travels. A parameter
// sent anywhere else counts as missing (400), as a real service would treat it.
import { http, HttpResponse, type HttpHandler } from 'msw';
import type {
  DataSubjectOperation,
  DataSubjectOperationId,
} from '../../shared/data-subject-operations';
import { paramValueProblem } from '../../shared/data-subject-validation';
import { answerLookup } from '../data/data-subject-answers';
import type { MockOperation } from '../operations';
import type { MockState } from '../state';
import { admitRequest } from './admission';
import { refuseUnauthorized } from './bearer-auth';
import { errorResponse } from './responses';

const WHERE = { header: 'header', query: 'query parameter', path: 'path segment' } as const;

/** `/v4/x/{name}` -> `/v4/x/:name`, MSW's path syntax. */
function mswPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

function handlerFor(state: MockState, operation: DataSubjectOperation): HttpHandler {
  return http.get(`*${mswPath(operation.path)}`, async ({ request, params }) => {
    // Which scope the data-subject operations need is not shown (upstream-api.md §5): any valid
    // token is accepted.
    const refused =
      (await admitRequest(state, operation.id as MockOperation)) ??
      refuseUnauthorized(state, request, null);
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
    const continuation = operation.continuation
      ? read(operation.continuation.location, operation.continuation.wireName)
      : undefined;
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
    return answer.status === 200
      ? HttpResponse.json(answer.body as Record<string, unknown>)
      : errorResponse(answer.status, answer.message);
  });
}

/** One handler per data-subject operation of the state's catalog. */
export function createDataSubjectHandlers(state: MockState): HttpHandler[] {
  return state.dataSubjects.operations.map((operation) => handlerFor(state, operation));
}
