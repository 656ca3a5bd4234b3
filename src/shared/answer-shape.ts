// Two facts about the platform's answers that both the SPA (laying an answer out, comparing a v4
// answer with its legacy one) and the BFF (the migration report's field differences) need.

/** Fields of a paged listing that describe the paging, not the data. */
export const PAGING_FIELDS: ReadonlySet<string> = new Set([
  'number',
  'size',
  'totalElements',
  'totalPages',
  'numberOfElements',
  'first',
  'last',
  'empty',
  'requestContinuation',
  'pageable',
  'sort',
]);

/** True for a plain JSON object (not an array, not null). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
