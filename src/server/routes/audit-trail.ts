// The lookup audit trail's routes (PRODUCT.md §6), admins only (app.ts): the trail newest first
// with filters, and the lookups of one identifier, which travels in the request body (never in a
// URL) and is compared only as its keyed hash.
import { Hono } from 'hono';
import {
  AUDIT_OUTCOMES,
  AUDIT_QUERY_LIMITS,
  AuditSearchRequestSchema,
  type AuditOutcome,
} from '../../shared/audit-trail';
import { USERNAME_PATTERN } from '../../shared/session';
import type { IdentifierHasher } from '../audit/identifier-hash';
import { PROBLEM_TYPES } from '../../shared/problem';
import { HttpProblem, invalidParameter } from '../problem';
import type { AuditQuery, AuditStore } from '../store/audit-store';
import { InvalidCursorError } from '../store/keyset-cursor';

export interface AuditTrailRoutesDeps {
  readonly store: AuditStore;
  readonly hasher: IdentifierHasher;
  /** Operation ids the trail can hold (the catalog's, and `unknown`). */
  readonly operations: readonly string[];
}

const PARAMETERS = ['since', 'until', 'user', 'operation', 'outcome', 'limit', 'cursor'] as const;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const NO_STORE = { 'Cache-Control': 'private, no-store' };

/** The 400 for a search body; never repeats the identifier. */
function invalidSearch(parameter: string, detail: string): HttpProblem {
  return new HttpProblem({
    type: PROBLEM_TYPES.invalidParameter,
    title: 'The search is not valid',
    status: 400,
    detail: `${parameter}: ${detail}`,
    parameter,
  });
}

function pageSize(text: string | null): number {
  if (text === null) return AUDIT_QUERY_LIMITS.defaultPageSize;
  const limit = Number(text);
  if (!/^\d{1,4}$/.test(text) || limit < 1 || limit > AUDIT_QUERY_LIMITS.maxPageSize) {
    throw invalidParameter(
      'limit',
      `must be a whole number from 1 to ${AUDIT_QUERY_LIMITS.maxPageSize}`,
    );
  }
  return limit;
}

function cursorOf(cursor: string | null | undefined): string | undefined {
  if (cursor === null || cursor === undefined) return undefined;
  if (cursor.length === 0 || cursor.length > 600) {
    throw invalidParameter('cursor', 'is not one this server issued');
  }
  return cursor;
}

/**
 * Reads and validates the trail's filters. Unknown and repeated parameters are refused rather than
 * ignored, so a typo is not silently answered with the whole trail.
 */
export function parseAuditQuery(url: URL, operations: ReadonlySet<string>): AuditQuery {
  const params = url.searchParams;
  for (const name of new Set(params.keys())) {
    if (!(PARAMETERS as readonly string[]).includes(name)) {
      throw invalidParameter(name, `unknown parameter; use ${PARAMETERS.join(', ')}`);
    }
    if (params.getAll(name).length > 1) throw invalidParameter(name, 'give it at most once');
  }
  const time = (name: 'since' | 'until') => {
    const value = params.get(name);
    if (value === null || value === '') return undefined;
    const ms = Date.parse(value);
    if (!DATE_TIME.test(value) || Number.isNaN(ms)) {
      throw invalidParameter(
        name,
        'must be an ISO 8601 date and time with a zone, e.g. 2026-01-31T09:00:00Z',
      );
    }
    return ms;
  };
  const since = time('since');
  const until = time('until');
  if (since !== undefined && until !== undefined && since > until) {
    throw invalidParameter('since', 'must not be after until');
  }
  const user = params.get('user') || null;
  if (user !== null && !USERNAME_PATTERN.test(user.toLowerCase())) {
    throw invalidParameter('user', 'must be a console username');
  }
  const operation = params.get('operation') || null;
  if (operation !== null && !operations.has(operation)) {
    throw invalidParameter('operation', 'must be an operation id of the catalog, or "unknown"');
  }
  const outcome = params.get('outcome') || null;
  if (outcome !== null && !(AUDIT_OUTCOMES as readonly string[]).includes(outcome)) {
    throw invalidParameter('outcome', `must be one of ${AUDIT_OUTCOMES.join(', ')}`);
  }
  const cursor = cursorOf(params.get('cursor'));
  return {
    ...(since === undefined ? {} : { since }),
    ...(until === undefined ? {} : { until }),
    ...(user === null ? {} : { user: user.toLowerCase() }),
    ...(operation === null ? {} : { operation }),
    ...(outcome === null ? {} : { outcome: outcome as AuditOutcome }),
    ...(cursor === undefined ? {} : { cursor }),
    limit: pageSize(params.get('limit')),
  };
}

/** The audit-trail routes, mounted at /api/audit-trail. */
export function auditTrailRoutes({ store, hasher, operations }: AuditTrailRoutesDeps) {
  const known = new Set([...operations, 'unknown']);
  const badCursor = (error: unknown): never => {
    if (error instanceof InvalidCursorError) {
      throw invalidParameter('cursor', 'is not one this server issued');
    }
    throw error;
  };

  return new Hono()
    .get('/', async (c) => {
      const query = parseAuditQuery(new URL(c.req.url), known);
      const page = await store.list(query).catch(badCursor);
      return c.json(page, 200, NO_STORE);
    })
    .post('/search', async (c) => {
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        throw invalidSearch('body', 'must be a JSON object with an identifier');
      }
      const parsed = AuditSearchRequestSchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.map(String).join('.') || 'body';
        throw invalidSearch(
          where,
          where === 'identifier'
            ? 'must be 1 to 256 characters'
            : 'send { "identifier": "…" } and optionally the cursor of the previous page',
        );
      }
      const identifier = parsed.data.identifier.trim();
      if (identifier === '') throw invalidSearch('identifier', 'must not be blank');
      const cursor = cursorOf(parsed.data.cursor);
      const page = await store
        .findByIdentifierHash(hasher.hash(identifier), {
          limit: AUDIT_QUERY_LIMITS.defaultPageSize,
          ...(cursor === undefined ? {} : { cursor }),
        })
        .catch(badCursor);
      return c.json(page, 200, NO_STORE);
    });
}
