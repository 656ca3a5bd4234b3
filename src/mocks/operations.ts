// The upstream operations the mock serves, named once so counters, fault injection and the
// rate-limit rules all speak of the same things.
import { BUILT_IN_OPERATIONS, DATA_SUBJECT_OPERATION_IDS } from '../shared/data-subject-operations';
import { EVENT_TYPES_OPERATION } from '../shared/event-types';
import { TOKEN_OPERATION } from '../shared/platform-operations';

/** Operations of the mock upstream, as named in counters and fault injection. */
export const MOCK_OPERATIONS = ['token', 'event-types', ...DATA_SUBJECT_OPERATION_IDS] as const;

/** One mock upstream operation: the token endpoint or an API operation. */
export type MockOperation = (typeof MOCK_OPERATIONS)[number];

/**
 * Method and path (below the base URL, `{name}` for a path parameter) of every operation. The
 * rate-limit rules of docs/rate-limit-model.md are matched against these paths, so a new operation is
 * counted by the right rule as soon as it is listed here (the type makes listing it mandatory).
 */
export const MOCK_OPERATION_ROUTES: Readonly<
  Record<MockOperation, { readonly method: 'GET' | 'POST'; readonly path: string }>
> = {
  token: TOKEN_OPERATION,
  'event-types': EVENT_TYPES_OPERATION,
  // The data-subject operations, v4 and legacy, at the built-in catalog's paths.
  ...(Object.fromEntries(
    BUILT_IN_OPERATIONS.map((operation) => [
      operation.id,
      { method: operation.method, path: operation.path },
    ]),
  ) as Record<(typeof DATA_SUBJECT_OPERATION_IDS)[number], { method: 'GET'; path: string }>),
};

/** Scopes the mock's token endpoint knows by default; the platform's documentation (docs/platform-contract.md) names only this one. */
export const DEFAULT_KNOWN_SCOPES: readonly string[] = ['ACTIVITY_LOG'];

/** The scope the event-types operation requires (docs/platform-contract.md). */
export const ACTIVITY_LOG_SCOPE = 'ACTIVITY_LOG';
