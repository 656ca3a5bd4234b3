// The event-types view as URL search params, so a view is a link: parsed with zod, anything
// unknown or invalid is dropped rather than breaking the page someone shared.
import * as z from 'zod/mini';
import type { EventTypeColumnKey } from '../../shared/event-types';
import {
  FILTER_LIMITS,
  filterValueProblem,
  hasControlCharacters,
} from '../../shared/filter-values';
import type { EventTypeFilters, SortState } from './filter-event-types';

/** The search param names, in the order they are written. */
const URL_PARAMS = {
  search: 'q',
  module: 'module',
  objectType: 'objectType',
  sort: 'sort',
  direction: 'dir',
} as const;

/**
 * Sort names as they appear in the URL. They match the CSV header rather than the upstream's
 * field names ("value" says nothing to a person reading a link).
 */
const SORT_URL_NAMES = {
  code: 'code',
  value: 'name',
  objectTypeName: 'objectType',
  moduleName: 'module',
} as const satisfies Record<EventTypeColumnKey, string>;

type SortUrlName = (typeof SORT_URL_NAMES)[EventTypeColumnKey];

const COLUMN_BY_SORT_URL_NAME = Object.fromEntries(
  Object.entries(SORT_URL_NAMES).map(([column, name]) => [name, column]),
) as Record<SortUrlName, EventTypeColumnKey>;

/** The whole view: what filters and in which order. */
export interface EventTypesViewState extends EventTypeFilters {
  sort: SortState | null;
}

export const DEFAULT_VIEW_STATE: EventTypesViewState = {
  q: '',
  modules: [],
  objectTypes: [],
  sort: null,
};

/** Valid, distinct facet values, at most FILTER_LIMITS.maxValues of them; the rest is dropped. */
const FacetValuesSchema = z.pipe(
  z.array(z.string()),
  z.transform((values) =>
    [...new Set(values.filter((value) => filterValueProblem(value) === null))].slice(
      0,
      FILTER_LIMITS.maxValues,
    ),
  ),
);

/** Search text: the first `q`, if it is printable and of a sane length. */
const SearchSchema = z.catch(
  z.pipe(
    z.optional(z.string()),
    z.transform((value) =>
      value === undefined || value.length > FILTER_LIMITS.maxLength || hasControlCharacters(value)
        ? ''
        : value,
    ),
  ),
  '',
);

const SortNameSchema = z.catch(
  z.optional(z.enum(Object.values(SORT_URL_NAMES) as [SortUrlName, ...SortUrlName[]])),
  undefined,
);
const DirectionSchema = z.catch(z.optional(z.enum(['asc', 'desc'])), undefined);

/** The raw params (facets as lists, since their names repeat), narrowed to a valid view. */
const ViewParamsSchema = z.object({
  q: SearchSchema,
  module: z.catch(FacetValuesSchema, []),
  objectType: z.catch(FacetValuesSchema, []),
  sort: SortNameSchema,
  dir: DirectionSchema,
});

/** Reads a view from search params; never throws, whatever the link holds. */
export function parseViewState(params: URLSearchParams): EventTypesViewState {
  const parsed = ViewParamsSchema.parse({
    q: params.get(URL_PARAMS.search) ?? undefined,
    module: params.getAll(URL_PARAMS.module),
    objectType: params.getAll(URL_PARAMS.objectType),
    sort: params.get(URL_PARAMS.sort) ?? undefined,
    dir: params.get(URL_PARAMS.direction) ?? undefined,
  });
  return {
    q: parsed.q,
    modules: parsed.module,
    objectTypes: parsed.objectType,
    sort:
      parsed.sort === undefined
        ? null
        : { column: COLUMN_BY_SORT_URL_NAME[parsed.sort], direction: parsed.dir ?? 'asc' },
  };
}

/** Writes a view as search params, leaving out whatever is at its default so links stay short. */
export function serialiseViewState(state: EventTypesViewState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q !== '') params.set(URL_PARAMS.search, state.q);
  for (const value of state.modules) params.append(URL_PARAMS.module, value);
  for (const value of state.objectTypes) params.append(URL_PARAMS.objectType, value);
  if (state.sort !== null) {
    params.set(URL_PARAMS.sort, SORT_URL_NAMES[state.sort.column]);
    params.set(URL_PARAMS.direction, state.sort.direction);
  }
  return params;
}

/** True when any filter (search or facet) narrows the rows; sorting does not count. */
export function hasActiveFilters(state: EventTypeFilters): boolean {
  return state.q.trim() !== '' || state.modules.length > 0 || state.objectTypes.length > 0;
}
