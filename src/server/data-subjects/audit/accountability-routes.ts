// The accountability report's routes (admins and auditors): the report for a period, and the same
// report as a signed JSON or Markdown file whose detached signature is fetched like an audit
// export's (GET /api/audit-trail/exports/:id/signature), and checked with the same recipe.
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import * as z from 'zod';
import {
  AccountabilityExportRequestSchema,
  AccountabilityReportSchema,
  DEFAULT_PERIOD_DAYS,
  MAX_PERIOD_DAYS,
} from '../../../shared/accountability';
import { PROBLEM_TYPES } from '../../../shared/problem';
import { AUDIT_TRAIL_ROLES } from '../../../shared/session';
import type { AppEnv } from '../../http/app-env';
import type { RecordChange } from '../../http/admin-change';
import type { ApiModule } from '../../http/api-operation';
import { HttpProblem, invalidParameter } from '../../http/problem';
import type { StoredChange } from './admin-change-entry';
import { signedAccountabilityFile } from './accountability-export';
import {
  accountabilityReport,
  changesOf,
  type AccountabilityReportDeps,
  type PeriodMs,
} from './accountability-report';
import type { AuditEvidenceStore } from './audit-evidence-store';
import type { Checkpointer } from './checkpoint-job';
import type { ExportSigner } from './export-signing';
import { NO_STORE } from '../../http/no-store';

export interface AccountabilityRoutesDeps extends AccountabilityReportDeps {
  readonly evidence: AccountabilityReportDeps['evidence'] & Pick<AuditEvidenceStore, 'saveExport'>;
  readonly recordChange: RecordChange;
  readonly signer: ExportSigner;
  readonly checkpointer: Pick<Checkpointer, 'take'>;
  /** Largest export, in records (AUDIT_EXPORT_MAX_RECORDS): here, the changes it lists. */
  readonly exportMaxRecords: number;
}

const DAY = 24 * 60 * 60 * 1000;
/** Changes read from the store per page while an export gathers them. */
const CHANGES_PAGE = 500;

const periodBound = z.iso.datetime({ offset: true }).optional().describe('An ISO 8601 date-time.');

/** The period's query: both bounds optional (default: the last 30 days up to now). */
const PeriodQuerySchema = z.strictObject({
  since: periodBound.describe(
    `The period's start, included (default: ${DEFAULT_PERIOD_DAYS} days before \`until\`).`,
  ),
  until: periodBound.describe('The period’s end, excluded (default: now).'),
});

/** The period asked for, checked: 400 naming the bound otherwise. */
function periodOf(
  given: { since?: string | undefined; until?: string | undefined },
  now: number,
): PeriodMs {
  const until = given.until === undefined ? now : Date.parse(given.until);
  const since =
    given.since === undefined ? until - DEFAULT_PERIOD_DAYS * DAY : Date.parse(given.since);
  if (since >= until) throw invalidParameter('since', 'must be before until');
  if (until - since > MAX_PERIOD_DAYS * DAY) {
    throw invalidParameter(
      'since',
      `the period is longer than ${MAX_PERIOD_DAYS} days; report on one year at a time`,
    );
  }
  return { since, until };
}

/** The first issue of a failed parse, as the 400 naming its field. */
function invalidField(error: z.ZodError, what: string): HttpProblem {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') || 'query';
  return invalidParameter(field, `${issue?.message ?? 'is not valid'} (${what})`);
}

/** Every change of the period, oldest page last; 413 when more than one export may hold. */
async function allChanges(deps: AccountabilityRoutesDeps, period: PeriodMs, total: number) {
  if (total > deps.exportMaxRecords) {
    throw new HttpProblem({
      type: PROBLEM_TYPES.exportTooLarge,
      title: 'The export is too large',
      status: 413,
      detail: `${total} administrative changes were made in the period; an export holds at most ${deps.exportMaxRecords} (AUDIT_EXPORT_MAX_RECORDS). Export a shorter period.`,
      parameter: 'since',
    });
  }
  const changes: StoredChange[] = [];
  let cursor: string | undefined;
  do {
    const page = await changesOf(deps.search, period, CHANGES_PAGE, cursor);
    changes.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return changes;
}

/** The accountability routes, mounted at /api/accountability. */
export function accountabilityRoutes(deps: AccountabilityRoutesDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const parsed = PeriodQuerySchema.safeParse(c.req.query());
      if (!parsed.success) throw invalidField(parsed.error, 'an ISO 8601 date-time');
      const report = await accountabilityReport(deps, periodOf(parsed.data, deps.now()));
      return c.json(report, 200, NO_STORE);
    })
    .post('/export', async (c) => {
      const user = c.get('user');
      if (!user) throw new Error('export without a signed-in user');
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        throw invalidParameter('body', 'must be a JSON object with a format');
      }
      const parsed = AccountabilityExportRequestSchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw invalidParameter(
          issue?.path.map(String).join('.') || 'body',
          'send { "format": "json" | "md" } and optionally "since" and "until" (ISO 8601)',
          { title: 'The export is not valid' },
        );
      }
      const period = periodOf(parsed.data, deps.now());
      const report = await accountabilityReport(deps, period);
      const changes = await allChanges(deps, period, report.changes.total);
      const id = randomUUID();
      const file = signedAccountabilityFile({
        id,
        format: parsed.data.format,
        report,
        changes,
        signer: deps.signer,
      });
      // Recorded before the file leaves, like every export (docs/audit-trail.md).
      await deps.recordChange(c, {
        action: 'audit.exported',
        target: id,
        after: { format: parsed.data.format, scope: file.scope, records: changes.length },
      });
      // Kept as an audit export is (a row, then its signature), so the same route serves it.
      await deps.evidence.saveExport(id, deps.now(), user.username, null);
      await deps.evidence.saveExport(id, deps.now(), user.username, JSON.stringify(file.signature));
      // The head as the officer received it; a failed checkpoint is logged by the checkpointer.
      await deps.checkpointer.take('export').catch(() => undefined);
      const day = (iso: string) => iso.slice(0, 10);
      return c.body(new Uint8Array(file.bytes), 200, {
        'Content-Type':
          parsed.data.format === 'md'
            ? 'text/markdown; charset=utf-8'
            : 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="accountability-${day(report.period.since)}-to-${day(report.period.until)}.${parsed.data.format}"`,
        'X-Export-Id': id,
        'X-Export-Records': String(changes.length),
        ...NO_STORE,
      });
    });
}

/** These routes in the console's API description (api-description/). */
export const accountabilityApi: ApiModule = {
  base: '/api/accountability',
  tag: {
    name: 'Accountability',
    description:
      'For a period: how many people were looked up, by whom, under which purposes, and every administrative change (admins and auditors).',
  },
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'getAccountabilityReport',
      summary: 'The accountability report for a period',
      description:
        'Counted by the database; people are counted by the keyed hash of the identifier asked for.',
      access: { session: AUDIT_TRAIL_ROLES },
      query: PeriodQuerySchema,
      responses: { 200: { description: 'The report.', schema: AccountabilityReportSchema } },
      problems: { 400: 'An invalid or too long period (`/problems/invalid-parameter`).' },
    },
    {
      method: 'post',
      path: '/export',
      operationId: 'exportAccountabilityReport',
      summary: 'The report as a signed JSON or Markdown file',
      description:
        'Holds every administrative change of the period. Fetch the detached signature at `/api/audit-trail/exports/{id}/signature` with the `X-Export-Id`.',
      access: { session: AUDIT_TRAIL_ROLES },
      body: AccountabilityExportRequestSchema,
      responses: {
        200: {
          description: 'The report file.',
          mediaType: 'application/json',
          schema: AccountabilityReportSchema,
          alsoAs: [{ mediaType: 'text/markdown' }],
          headers: {
            'X-Export-Id': 'The export’s id, for its signature.',
            'X-Export-Records': 'How many administrative changes it lists.',
          },
        },
      },
      problems: {
        400: 'An invalid format or period (`/problems/invalid-parameter`).',
        413: 'More changes than one export may hold (`/problems/export-too-large`).',
      },
    },
  ],
};
