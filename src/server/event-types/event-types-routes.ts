// GET /api/event-types: the activity-log event types, optionally filtered by module and object
// type (docs/product.md §5). Filter values are validated before anything is sent upstream.
import { Hono } from 'hono';
import * as z from 'zod';
import { EventTypesResponseSchema } from '../../shared/event-types';
import { FILTER_LIMITS, filterValueProblem } from '../../shared/filter-values';
import { ANY_ROLE, type ApiModule } from '../http/api-operation';
import { GZIP_MIN_BYTES, jsonAnswer } from '../http/gzip-answer';
import { invalidParameter } from '../http/problem';
import type { EventTypeFilters, EventTypesSource } from './event-types-source';
import { NO_STORE } from '../http/no-store';

const FILTER_PARAMETERS = ['modules', 'objectTypes'] as const;

/**
 * Reads and validates the filters from the query. Unknown parameters are refused rather than
 * ignored, so a typo ("module=") is not silently answered with the unfiltered list.
 */
function parseEventTypeFilters(url: URL, arrayQueryStyle: 'repeat' | 'comma'): EventTypeFilters {
  for (const name of new Set(url.searchParams.keys())) {
    if (!(FILTER_PARAMETERS as readonly string[]).includes(name)) {
      throw invalidParameter(name, `unknown parameter; use ${FILTER_PARAMETERS.join(' or ')}`);
    }
  }
  const filters: EventTypeFilters = { modules: [], objectTypes: [] };
  for (const name of FILTER_PARAMETERS) {
    const values = url.searchParams.getAll(name);
    if (values.length > FILTER_LIMITS.maxValues) {
      throw invalidParameter(name, `at most ${FILTER_LIMITS.maxValues} values are allowed`);
    }
    for (const value of values) {
      const problem = filterValueProblem(value);
      if (problem) throw invalidParameter(name, `each value ${problem}`);
      // With comma-separated filters on the wire, a comma inside a value would split it in two.
      if (arrayQueryStyle === 'comma' && value.includes(',')) {
        throw invalidParameter(name, 'values cannot contain a comma when ARRAY_QUERY_STYLE=comma');
      }
    }
    filters[name] = [...new Set(values)].sort();
  }
  return filters;
}

/** The event-types routes, given where event types come from. */
export function eventTypesRoutes(source: EventTypesSource, arrayQueryStyle: 'repeat' | 'comma') {
  return new Hono().get('/', async (c) => {
    const filters = parseEventTypeFilters(new URL(c.req.url), arrayQueryStyle);
    const json = await source.getJson(filters);
    return jsonAnswer(c, json, {
      'Content-Type': 'application/json; charset=utf-8',
      ...NO_STORE,
    });
  });
}

/**
 * The filters as the API description shows them. The handler reads them by hand above (repeated
 * parameters, one message per fault), with the same limits.
 */
const filterValues = z
  .array(z.string().min(1).max(FILTER_LIMITS.maxLength))
  .max(FILTER_LIMITS.maxValues);
const EventTypeFiltersQuery = z.strictObject({
  modules: z.optional(filterValues.describe('Module names; repeat the parameter for more.')),
  objectTypes: z.optional(
    filterValues.describe('Object-type names; repeat the parameter for more.'),
  ),
});

/** These routes in the console's API description (api-description/). */
export const eventTypesApi: ApiModule = {
  base: '/api/event-types',
  scope: 'connection',
  tag: { name: 'Event types', description: 'The platform’s activity-log event types.' },
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'listEventTypes',
      summary: 'The activity-log event types',
      description: `From a 30-second cache of the platform’s answer; \`stale\` says when the platform could not be asked and the last good list is shown. Sent gzip-compressed when the request’s \`Accept-Encoding\` takes gzip and the answer has ${GZIP_MIN_BYTES} bytes or more.`,
      access: { session: ANY_ROLE },
      query: EventTypeFiltersQuery,
      responses: { 200: { description: 'The event types.', schema: EventTypesResponseSchema } },
      problems: {
        400: 'An unknown or invalid filter (`/problems/invalid-parameter`).',
        429: 'The platform or the console’s governor holds requests back (`/problems/rate-limited`).',
        502: 'The platform refused or answered something unusable (`/problems/upstream-*`).',
        503: 'The platform or its token service cannot be reached, or the console is fetching as many lists as it allows at once (`/problems/console-busy`).',
        504: 'The platform did not answer in time (`/problems/upstream-timeout`).',
      },
    },
  ],
};
