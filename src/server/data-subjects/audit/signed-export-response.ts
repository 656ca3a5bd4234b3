// The answer to an export request, for the lookups and the administrative changes alike: refuses
// one larger than AUDIT_EXPORT_MAX_RECORDS, records the export itself (`audit.exported`) before a
// byte leaves, then streams the file and keeps its signature for GET /exports/:id/signature.
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { AuditExportFormat } from '../../../shared/audit-trail';
import { PROBLEM_TYPES } from '../../../shared/problem';
import type { AppEnv } from '../../http/app-env';
import type { RecordChange } from '../../http/admin-change';
import { HttpProblem } from '../../http/problem';
import { streamSignedExport, type ExportLayout, type ExportPages } from './audit-export';
import type { AuditEvidenceStore } from './audit-evidence-store';
import type { Checkpointer } from './checkpoint-job';
import type { ExportSigner } from './export-signing';
import { NO_STORE } from '../../http/no-store';

/** What an export route needs to make, record and sign an export. */
export interface SignedExportDeps {
  /** Keeps each export's detached signature. */
  readonly evidence: Pick<AuditEvidenceStore, 'saveExport'>;
  readonly recordChange: RecordChange;
  readonly signer: ExportSigner;
  /** Takes a signed checkpoint of the chain's head after every export. */
  readonly checkpointer: Pick<Checkpointer, 'take'>;
  /** Largest export, in records (AUDIT_EXPORT_MAX_RECORDS). */
  readonly exportMaxRecords: number;
  readonly now: () => number;
}

/** One export to answer: its rows, how many there are, and the filters in words. */
export interface SignedExportRequest<Row> {
  readonly format: AuditExportFormat;
  readonly scope: string;
  readonly total: number;
  readonly pages: ExportPages<Row>;
  readonly layout: ExportLayout<Row>;
  /** The file name's start, before the time stamp (`audit-trail`, `audit-changes`). */
  readonly fileName: string;
}

/** The streamed, signed export; a 413 problem when more rows match than one export may hold. */
export async function signedExportResponse<Row>(
  c: Context<AppEnv>,
  deps: SignedExportDeps,
  request: SignedExportRequest<Row>,
): Promise<Response> {
  const user = c.get('user');
  if (!user) throw new Error('export without a signed-in user');
  const { format, scope, total } = request;
  if (total > deps.exportMaxRecords) {
    throw new HttpProblem({
      type: PROBLEM_TYPES.exportTooLarge,
      title: 'The export is too large',
      status: 413,
      detail: `${total} records match; an export holds at most ${deps.exportMaxRecords} (AUDIT_EXPORT_MAX_RECORDS). Narrow the time range or filters and export in parts.`,
      parameter: 'filters',
    });
  }
  const id = randomUUID();
  await deps.recordChange(c, {
    action: 'audit.exported',
    target: id,
    after: { format, scope, records: total },
  });
  await deps.evidence.saveExport(id, deps.now(), user.username, null);
  const stream = streamSignedExport(
    {
      id,
      format,
      scope,
      pages: request.pages,
      signer: deps.signer,
      now: deps.now,
      signed: async (signature) => {
        await deps.evidence.saveExport(id, deps.now(), user.username, JSON.stringify(signature));
        // The head as the auditor received it: a later cut below it is caught.
        // A failed checkpoint is logged by the checkpointer; the export itself is whole.
        await deps.checkpointer.take('export').catch(() => undefined);
      },
    },
    request.layout,
  );
  const stamp = new Date(deps.now()).toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return new Response(stream, {
    status: 200,
    headers: {
      'Content-Type':
        format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${request.fileName}-${stamp}.${format}"`,
      'X-Export-Id': id,
      'X-Export-Records': String(total),
      ...NO_STORE,
    },
  });
}
