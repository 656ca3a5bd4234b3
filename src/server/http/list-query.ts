// One validator for the query strings of the paged list routes (the 429 history, the audit trail),
// so both read time ranges, paging and filters alike and refuse a bad one with the same 400.
import { validator } from 'hono/validator';
import * as z from 'zod';
import { invalidParameter, type HttpProblem } from './problem';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const ONCE = 'give it at most once';
/** A cursor the stores issue is far shorter; anything longer is not one of ours. */
const MAX_CURSOR_LENGTH = 600;

/** One query parameter's text; repeated, Hono hands it over as an array, which is refused. */
const once = () => z.string({ error: ONCE });

/**
 * A filter: given at most once, checked by `schema`. An empty value counts as not given — a
 * cleared filter field of a form or a hand-edited URL means "no filter" on every list route,
 * never an error on one route and the unfiltered list on another.
 */
export function listFilter<Out>(schema: z.ZodType<Out, string>) {
  return z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.optional(once().pipe(schema)),
  );
}

/** An instant with its zone, as milliseconds since the epoch. */
const dateTime = z
  .string()
  .refine(
    (value) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)),
    'must be an ISO 8601 date and time with a zone, e.g. 2026-01-31T09:00:00Z',
  )
  .transform((value) => Date.parse(value));

/** Page sizes of a list: the default when `limit` is not given, and the largest allowed. */
export interface PageLimits {
  readonly defaultPageSize: number;
  readonly maxPageSize: number;
}

/** Whether the time range runs forwards: `since` not after `until` (either may be absent). */
function inOrder(query: object): boolean {
  const { since, until } = query as { since?: number; until?: number };
  return since === undefined || until === undefined || since <= until;
}

/**
 * The schema of a list route's query: `since` and `until` (instants, `since` not after `until`),
 * the route's own `filters` (each made with {@link listFilter}), `limit` and `cursor`. Paging
 * parameters, unlike filters, must not be empty: an empty cursor answered with the first page
 * would repeat rows in a browser that pages on. Unknown parameters are refused rather than
 * ignored, so a typo is not silently answered with the unfiltered list.
 */
export function listQuerySchema<Filters extends z.ZodRawShape>(
  filters: Filters,
  limits: PageLimits,
) {
  const names = ['since', 'until', ...Object.keys(filters), 'limit', 'cursor'];
  const limitMessage = `must be a whole number from 1 to ${limits.maxPageSize}`;
  return z
    .strictObject(
      {
        since: listFilter(dateTime).describe(
          'From this instant on: ISO 8601 with a zone, e.g. 2026-01-31T09:00:00Z.',
        ),
        until: listFilter(dateTime).describe('Up to this instant, as `since`.'),
        ...filters,
        limit: z
          .optional(
            once()
              .regex(/^\d{1,4}$/, limitMessage)
              .transform(Number)
              .refine((limit) => limit >= 1 && limit <= limits.maxPageSize, limitMessage),
          )
          .transform((limit) => limit ?? limits.defaultPageSize)
          .describe(`Page size, 1 to ${limits.maxPageSize}; default ${limits.defaultPageSize}.`),
        cursor: z
          .optional(
            once()
              .min(1, 'is not one this server issued')
              .max(MAX_CURSOR_LENGTH, 'is not one this server issued'),
          )
          .describe('The `nextCursor` of the previous page.'),
      },
      {
        error: (issue) =>
          issue.code === 'unrecognized_keys'
            ? `unknown parameter; use ${names.join(', ')}`
            : undefined,
      },
    )
    .refine(inOrder, { message: 'must not be after until', path: ['since'] });
}

/** The 400 naming the first bad parameter; an unknown one is named before any bad value. */
function problemOf(error: z.ZodError): HttpProblem {
  const issue = error.issues.find((one) => one.code === 'unrecognized_keys') ?? error.issues[0];
  if (issue?.code === 'unrecognized_keys') return invalidParameter(issue.keys[0]!, issue.message);
  return invalidParameter(String(issue?.path[0] ?? 'query'), issue?.message ?? 'is not valid');
}

/** `value` (parameter name to text) read by `schema`, or the problem+json 400 thrown. */
export function parseListQuery<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw problemOf(parsed.error);
  return parsed.data;
}

/** Hono middleware validating a list route's query; the route reads it with `c.req.valid('query')`. */
export function validListQuery<Schema extends z.ZodType>(schema: Schema) {
  return validator('query', (value) => parseListQuery(schema, value));
}
