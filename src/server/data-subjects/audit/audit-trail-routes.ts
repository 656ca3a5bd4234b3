// The lookup audit trail's routes, admins only (app.ts): the trail newest first with filters; the
// lookups that asked for or showed one identifier, which travels in the request body (never in a
// URL) and is compared only as its keyed hashes; signed exports of either, streamed; and the
// trail's integrity (the hash chain's last walk, retention).
import { Hono } from 'hono';
import type { RecordChange } from '../../http/admin-change';
import { CheckpointFileError } from './checkpoint-file';
import * as z from 'zod';
import {
  AUDIT_OUTCOMES,
  AUDIT_QUERY_LIMITS,
  AUDIT_SEARCH_MAX_LENGTH,
  AuditExportRequestSchema,
  AuditExportSignatureSchema,
  AuditIntegritySchema,
  AuditPageSchema,
  AuditRecordSchema,
  AuditSearchPageSchema,
  AuditSearchRequestSchema,
  AuditVerificationSchema,
  isEmailIdentifier,
  type AuditIntegrity,
  type AuditMatch,
} from '../../../shared/audit-trail';
import type { AppEnv } from '../../http/app-env';
import type { ApiModule } from '../../http/api-operation';
import { AUDIT_RECORD_LAYOUT, type ExportPages } from './audit-export';
import { signedExportResponse } from './signed-export-response';
import { personSearch } from './person-search';
import type { ExportSigner } from './export-signing';
import type { Checkpointer } from './checkpoint-job';
import { findCheckpoint } from './checkpoints';
import { verifyAuditChain } from './verify-chain';
import type { CheckpointSource } from './checkpoint-reader';
import { AUDIT_TRAIL_ROLES, USERNAME_PATTERN } from '../../../shared/session';
import { CONNECTION_NAME_PATTERN } from '../../../shared/connections';
import { hasControlCharacters } from '../../../shared/data-subject-validation';
import type { IdentifierHasher } from './identifier-hash';
import { PROBLEM_TYPES } from '../../../shared/problem';
import { HttpProblem, invalidParameter } from '../../http/problem';
import type { AuditEvidenceStore, AuditVerification } from './audit-evidence-store';
import type { AuditChainStore } from './audit-chain-store';
import type { AuditQuery, AuditSearch } from './audit-search';
import {
  PURPOSE_CATEGORY_MAX_LENGTH,
  PURPOSE_REFERENCE_MAX_LENGTH,
} from '../../../shared/lookup-purpose';
import type { Context } from 'hono';
import { InvalidCursorError } from '../../store/keyset-cursor';
import { listFilter, listQuerySchema, parseListQuery, validListQuery } from '../../http/list-query';
import { NO_STORE } from '../../http/no-store';

export interface AuditTrailRoutesDeps {
  /** The lookups the page lists, searches and exports. */
  readonly search: AuditSearch;
  /** The chain's head (the page's state) and its walk ("verify now"). */
  readonly chain: Pick<AuditChainStore, 'chainState' | 'readChain' | 'coverage'>;
  /** What is kept beside the trail: walks of the chain, checkpoints, export signatures. */
  readonly evidence: AuditEvidenceStore;
  /** Records exports made and verifications run in the audit trail, before they run. */
  readonly recordChange: RecordChange;
  readonly hasher: IdentifierHasher;
  /** Operation ids the trail can hold (the catalog's, and `unknown`). */
  readonly operations: readonly string[];
  /** The hash chain's key (deriveAuditKey(AUDIT_KEY, 'chain')), for "verify now". */
  readonly chainKey: Buffer;
  readonly signer: ExportSigner;
  /** Takes a signed checkpoint of the chain's head after every export. */
  readonly checkpointer: Pick<Checkpointer, 'take'>;
  /** The checkpoints "verify now" holds the chain against, and the key they are signed with. */
  readonly checkpoints: {
    readonly publicKeyPem: string;
    readonly sources: () => Promise<CheckpointSource[]>;
    /** AUDIT_CHECKPOINT_MINUTES, and whether AUDIT_CHECKPOINT_DIR is set (the page says so). */
    readonly everyMinutes: number;
    readonly outsideDirectory: boolean;
    /** The last checkpoint AUDIT_CHECKPOINT_DIR refused, until one is written there again. */
    readonly outsideFailure?: () => { at: string; error: string } | undefined;
  };
  /** Largest export, in records (AUDIT_EXPORT_MAX_RECORDS). */
  readonly exportMaxRecords: number;
  /** Audit records are kept this many days (AUDIT_RETENTION_DAYS). */
  readonly retentionDays: number;
  readonly now: () => number;
}

/** An export id as the signature route checks it. */
const EXPORT_ID = /^[0-9a-f-]{36}$/;

/** The 400 for a search body; never repeats the identifier. */
function invalidSearch(parameter: string, detail: string): HttpProblem {
  return invalidParameter(parameter, detail, { title: 'The search is not valid' });
}

/**
 * The 400 for a cursor the store cannot read: a cursor is only ever handed out by this server, so
 * one it cannot read was altered, or comes from another list or an older version. Not titled as a
 * bad query parameter: the search sends it in its body, and the fix is the same for both.
 */
export function invalidCursor(): HttpProblem {
  return invalidParameter(
    'cursor',
    'cursor: not one this server issued for this list (altered, stale, or from another list). Start again from the first page: send the request without a cursor, then follow each answer’s nextCursor.',
    { title: 'The cursor is not valid', detailAsIs: true },
  );
}

function cursorOf(cursor: string | null | undefined): string | undefined {
  if (cursor === null || cursor === undefined) return undefined;
  if (cursor.length === 0 || cursor.length > 600) throw invalidCursor();
  return cursor;
}

/**
 * The connection filter of the trail's lists: a connection's name, checked by its pattern only. A
 * name no longer configured is still a valid filter (its records stay in the trail until
 * retention removes them, and an auditor must be able to find them); it simply matches what
 * that connection recorded, possibly nothing.
 */
export function connectionFilter() {
  return listFilter(
    z
      .string()
      .refine(
        (name) => CONNECTION_NAME_PATTERN.test(name),
        'must be a connection name: a lower-case letter, then up to 31 lower-case letters, digits or hyphens',
      ),
  ).describe(
    'One platform connection’s records only (its name, as `GET /api/connections` lists it).',
  );
}

/**
 * The trail's query: time range and paging, filtered by user, operation, outcome, purpose and
 * connection.
 */
function auditQuerySchema(operations: ReadonlySet<string>) {
  return listQuerySchema(
    {
      user: listFilter(
        z
          .string()
          .transform((user) => user.toLowerCase())
          .refine((user) => USERNAME_PATTERN.test(user), 'must be a console username'),
      ).describe('A console username.'),
      operation: listFilter(
        z
          .string()
          .refine(
            (operation) => operations.has(operation),
            'must be an operation id of the catalog, or "unknown"',
          ),
      ).describe('An operation id of GET /api/data-subjects/operations, or `unknown`.'),
      outcome: listFilter(
        z.enum(AUDIT_OUTCOMES, { error: `must be one of ${AUDIT_OUTCOMES.join(', ')}` }),
      ).describe(`One of ${AUDIT_OUTCOMES.join(', ')}.`),
      reference: listFilter(z.string().trim().min(1).max(PURPOSE_REFERENCE_MAX_LENGTH)).describe(
        'A purpose’s reference, exactly (case ignored): everything under one request.',
      ),
      category: listFilter(z.string().min(1).max(PURPOSE_CATEGORY_MAX_LENGTH)).describe(
        'A purpose category (LOOKUP_PURPOSE_CATEGORIES).',
      ),
      connection: connectionFilter(),
    },
    AUDIT_QUERY_LIMITS,
  );
}

/** The identifier of a search or export body, checked: 400 with a clear message otherwise. */
function searchedIdentifier(given: unknown): string {
  if (typeof given !== 'string' || given.trim() === '') {
    throw invalidSearch('identifier', 'type the identifier to search for; it must not be empty');
  }
  if (given.length > AUDIT_SEARCH_MAX_LENGTH) {
    throw invalidSearch(
      'identifier',
      `is longer than ${AUDIT_SEARCH_MAX_LENGTH} characters: no identifier the console looks up is that long`,
    );
  }
  if (hasControlCharacters(given.trim())) {
    throw invalidSearch(
      'identifier',
      'must not contain control characters (such as NUL): a lookup refuses them, so no lookup asked for one',
    );
  }
  return given.trim();
}

async function jsonBody(c: Context, what: string): Promise<unknown> {
  try {
    return JSON.parse(await c.req.text());
  } catch {
    throw invalidSearch('body', `must be a JSON object ${what}`);
  }
}

/** How a searched identifier is matched: the page says it in words. */
function matchOf(identifier: string, hashes: readonly string[]): AuditMatch {
  return { rule: isEmailIdentifier(identifier) ? 'email' : 'exact', forms: hashes.length };
}

/** The filters of an export, in words, for its manifest. */
function scopeOf(query: Omit<AuditQuery, 'limit'>): string {
  const parts = [
    query.since === undefined ? null : `since ${new Date(query.since).toISOString()}`,
    query.until === undefined ? null : `until ${new Date(query.until).toISOString()}`,
    query.user === undefined ? null : `user ${query.user}`,
    query.operation === undefined ? null : `operation ${query.operation}`,
    query.outcome === undefined ? null : `outcome ${query.outcome}`,
    query.reference === undefined ? null : `reference ${query.reference}`,
    query.category === undefined ? null : `category ${query.category}`,
    query.connection === undefined ? null : `connection ${query.connection}`,
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? 'the whole trail' : `filters: ${parts.join(', ')}`;
}

/** The audit-trail routes, mounted at /api/audit-trail. */
export function auditTrailRoutes(deps: AuditTrailRoutesDeps) {
  const { search, chain, evidence, hasher, operations } = deps;
  const auditQuery = auditQuerySchema(new Set([...operations, 'unknown']));
  const badCursor = (error: unknown): never => {
    if (error instanceof InvalidCursorError) throw invalidCursor();
    throw error;
  };
  // One walk of the chain at a time, however many admins press "verify now".
  let verifying: Promise<AuditVerification> | undefined;

  return new Hono<AppEnv>()
    .get('/', validListQuery(auditQuery), async (c) => {
      const query: AuditQuery = c.req.valid('query');
      const page = await search.list(query).catch(badCursor);
      return c.json(page, 200, NO_STORE);
    })
    .post('/search', async (c) => {
      const body = await jsonBody(c, 'with an identifier');
      const given = (body as { identifier?: unknown } | null)?.identifier;
      const identifier = searchedIdentifier(given);
      const parsed = AuditSearchRequestSchema.safeParse(body);
      if (!parsed.success && parsed.error.issues[0]?.path[0] === 'cursor') throw invalidCursor();
      if (!parsed.success) {
        throw invalidSearch(
          'body',
          'send { "identifier": "…" } and optionally the cursor of the previous page',
        );
      }
      const cursor = cursorOf(parsed.data.cursor);
      const hashes = hasher.searchHashes(identifier);
      const person = await personSearch(search, hashes);
      const page = await search
        .findByIdentifierHashes(person.hashes, {
          limit: AUDIT_QUERY_LIMITS.defaultPageSize,
          ...(cursor === undefined ? {} : { cursor }),
        })
        .catch(badCursor);
      return c.json(
        {
          ...(await person.annotate(page)),
          match: matchOf(identifier, hashes),
          links: person.links,
        },
        200,
        NO_STORE,
      );
    })
    .post('/export', async (c) => {
      const body = await jsonBody(c, 'with a format, and an identifier or filters');
      const parsed = AuditExportRequestSchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.map(String).join('.') || 'body';
        if (where === 'identifier')
          searchedIdentifier((body as { identifier?: unknown }).identifier);
        throw invalidSearch(
          where,
          'send { "format": "csv" | "json" } with an "identifier" or "filters" (since, until, user, operation, outcome, reference, category, connection)',
        );
      }
      const request = parsed.data;
      let pages: ExportPages;
      let total: number;
      let scope: string;
      if (request.identifier !== undefined) {
        const person = await personSearch(
          search,
          hasher.searchHashes(searchedIdentifier(request.identifier)),
        );
        total = await search.countByIdentifierHashes(person.hashes);
        pages = async (cursor, limit) =>
          person.annotate(
            await search.findByIdentifierHashes(person.hashes, {
              limit,
              ...(cursor ? { cursor } : {}),
            }),
          );
        scope = `lookups that asked for or showed one person (searched by the keyed hash of one key and the keys shown with it)${
          person.links.complete
            ? ''
            : `; the search stopped at its bound of ${person.links.max} linked keys, so lookups that showed the person only under further keys are missing`
        }`;
      } else {
        const { limit: _limit, ...query }: AuditQuery = parseListQuery(
          auditQuery,
          request.filters ?? {},
        );
        total = await search.count(query);
        pages = (cursor, limit) => search.list({ ...query, limit, ...(cursor ? { cursor } : {}) });
        scope = scopeOf(query);
      }
      return signedExportResponse(c, deps, {
        format: request.format,
        scope,
        total,
        pages,
        layout: AUDIT_RECORD_LAYOUT,
        fileName: 'audit-trail',
      });
    })
    .get('/exports/:id/signature', async (c) => {
      const user = c.get('user');
      const id = c.req.param('id');
      if (!user || !EXPORT_ID.test(id)) throw invalidParameter('id', 'is not an export id');
      const signature = await evidence.exportSignature(id, user.username);
      if (signature === undefined) {
        throw new HttpProblem({
          type: PROBLEM_TYPES.notFound,
          title: 'No such export',
          status: 404,
          detail: 'No export with this id was made by you.',
        });
      }
      if (signature === null) {
        throw new HttpProblem({
          type: PROBLEM_TYPES.conflict,
          title: 'The export has not finished',
          status: 409,
          detail:
            'Its signature is written once the last byte has been sent; read the export to its end first.',
        });
      }
      return c.body(signature, 200, {
        'Content-Type': 'application/json; charset=utf-8',
        ...NO_STORE,
      });
    })
    .get('/integrity', async (c) => {
      const [lastVerification, state, latestLine] = await Promise.all([
        evidence.lastVerification(),
        chain.chainState(),
        evidence.latestCheckpoint(),
      ]);
      const latest = latestLine === null ? undefined : findCheckpoint(JSON.parse(latestLine));
      // An intact walk covered every entry from the retention checkpoint to the head of then.
      const cutAt = state.checkpoint ? (JSON.parse(state.checkpoint) as { seq: number }).seq : 0;
      const integrity: AuditIntegrity = {
        lastVerification,
        retention: { days: deps.retentionDays, lastRun: state.lastRetention },
        exportMaxRecords: deps.exportMaxRecords,
        entriesSinceVerification:
          lastVerification?.ok === true
            ? Math.max(0, state.seq - cutAt - lastVerification.entries)
            : null,
        checkpoints: {
          everyMinutes: deps.checkpoints.everyMinutes,
          outsideDirectory: deps.checkpoints.outsideDirectory,
          outsideFailure: deps.checkpoints.outsideFailure?.() ?? null,
          latest: latest
            ? { seq: latest.seq, at: latest.at, keyFingerprint: latest.keyFingerprint }
            : null,
        },
      };
      return c.json(integrity, 200, NO_STORE);
    })
    .post('/verify', async (c) => {
      const user = c.get('user');
      await deps.recordChange(c, { action: 'audit.verified', target: null });
      const source = `${user?.username ?? 'an unknown user'} on the audit page`;
      verifying ??= deps.checkpoints
        .sources()
        .then(
          (sources) => sources,
          // The checkpoint file swapped for a FIFO, a link or a directory while the console runs:
          // a walk without the evidence kept outside would mislead, so it says why instead.
          (error: unknown) => {
            if (!(error instanceof CheckpointFileError)) throw error;
            return unreadableCheckpoints(error, source, deps.now());
          },
        )
        .then((sources) =>
          !Array.isArray(sources)
            ? sources
            : verifyAuditChain(chain, deps.chainKey, {
                now: deps.now,
                source,
                checkpoints: { publicKeyPem: deps.checkpoints.publicKeyPem, sources },
              }),
        )
        .then(async (verification) => {
          await evidence.saveVerification(verification);
          return verification;
        })
        .finally(() => {
          verifying = undefined;
        });
      return c.json(await verifying, 200, NO_STORE);
    });
}

/** The walk's result when the checkpoint file could not be read: failed, saying why. */
function unreadableCheckpoints(
  error: CheckpointFileError,
  source: string,
  now: number,
): AuditVerification {
  return {
    at: new Date(now).toISOString(),
    ok: false,
    entries: 0,
    brokenAt: null,
    detail: `the checkpoint file could not be read (${error.why}), so the chain was not held against it`,
    source,
  };
}

/** A JSON export as audit/audit-export.ts streams it. */
const ExportFileSchema = z.object({
  exportId: z.string(),
  createdAt: z.iso.datetime(),
  scope: z.string(),
  records: z.array(AuditRecordSchema),
  count: z.int(),
});
const exportId = z.object({ id: z.string().regex(EXPORT_ID) });

/** These routes in the console's API description (api-description/). */
export const auditTrailApi: ApiModule = {
  base: '/api/audit-trail',
  tag: {
    name: 'Audit trail',
    description: 'Every lookup of personal data, searchable and exportable (admins only).',
  },
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'listAuditRecords',
      summary: 'The audit trail, newest first',
      access: { session: AUDIT_TRAIL_ROLES },
      query: auditQuerySchema(new Set()),
      responses: { 200: { description: 'One page of records.', schema: AuditPageSchema } },
      problems: { 400: 'An unknown or invalid query parameter (`/problems/invalid-parameter`).' },
    },
    {
      method: 'post',
      path: '/search',
      operationId: 'searchAuditByIdentifier',
      summary: 'The lookups that asked for or showed one identifier',
      description:
        'The identifier travels in the body and is compared only as its keyed hashes; it is never stored or logged.',
      access: { session: AUDIT_TRAIL_ROLES },
      body: AuditSearchRequestSchema,
      responses: { 200: { description: 'One page of matches.', schema: AuditSearchPageSchema } },
      problems: { 400: 'No identifier, or an invalid cursor (`/problems/invalid-parameter`).' },
    },
    {
      method: 'post',
      path: '/export',
      operationId: 'exportAuditRecords',
      summary: 'Export a search or filtered records as CSV or JSON, streamed and signed',
      description:
        'Fetch the detached signature by the `X-Export-Id` once the last byte has arrived.',
      access: { session: AUDIT_TRAIL_ROLES },
      body: AuditExportRequestSchema,
      responses: {
        200: {
          description: 'The export file.',
          mediaType: 'text/csv',
          alsoAs: [{ mediaType: 'application/json', schema: ExportFileSchema }],
          headers: {
            'X-Export-Id': 'The export’s id, for its signature.',
            'X-Export-Records': 'How many records it holds.',
          },
        },
      },
      problems: {
        400: 'An invalid format, identifier or filter (`/problems/invalid-parameter`).',
        413: 'More records match than one export may hold (`/problems/export-too-large`).',
      },
    },
    {
      method: 'get',
      path: '/exports/:id/signature',
      operationId: 'getAuditExportSignature',
      summary: 'The detached signature of one of your exports',
      access: { session: AUDIT_TRAIL_ROLES },
      params: exportId,
      responses: {
        200: { description: 'The signed manifest.', schema: AuditExportSignatureSchema },
      },
      problems: {
        400: 'Not an export id (`/problems/invalid-parameter`).',
        404: 'No export with this id was made by you (`/problems/not-found`).',
        409: 'The export has not been read to its end yet (`/problems/conflict`).',
      },
    },
    {
      method: 'get',
      path: '/integrity',
      operationId: 'getAuditIntegrity',
      summary: 'The hash chain’s last walk and the retention',
      access: { session: AUDIT_TRAIL_ROLES },
      responses: { 200: { description: 'The integrity.', schema: AuditIntegritySchema } },
    },
    {
      method: 'post',
      path: '/verify',
      operationId: 'verifyAuditChain',
      summary: 'Walk the hash chain now',
      access: { session: AUDIT_TRAIL_ROLES },
      responses: { 200: { description: 'The walk’s result.', schema: AuditVerificationSchema } },
    },
  ],
};
