// Streams the audit records of a search or a filter as CSV or JSON, one page of the store at a
// time and only as fast as the client reads, hashing the bytes as they leave; at the end the
// manifest (digest, size, records, scope) is signed and kept, for the browser to fetch as the
// export's detached signature. Nothing is built in memory, however large the export. The lookups
// and the administrative changes are exported alike; only their rows' layout differs.
import { createHash } from 'node:crypto';
import type {
  AuditExportFormat,
  AuditExportSignature,
  AuditRecord,
} from '../../../shared/audit-trail';
import type { AuditRecordPage } from './audit-search';
import type { ExportSigner } from './export-signing';
import { csvCell } from '../../../shared/csv-formula';
import { MATCH_TEXT, OUTCOME_LABELS, operationTitle } from '../../../shared/audit-words';

/** Records per page read from the store. */
export const EXPORT_PAGE_SIZE = 500;

/** Where an export's records come from: pages of the trail, newest first. */
export type ExportPages<Row = AuditRecord> = (
  cursor: string | undefined,
  limit: number,
) => Promise<Pick<AuditRecordPage, 'nextCursor'> & { readonly items: readonly Row[] }>;

/** How one kind of record is written: its CSV columns, and its form in the JSON `records`. */
export interface ExportLayout<Row> {
  readonly csvHeader: readonly string[];
  csvCells(row: Row): ReadonlyArray<Parameters<typeof csvCell>[0]>;
  json(row: Row): unknown;
}

export interface AuditExportOptions<Row = AuditRecord> {
  readonly id: string;
  readonly format: AuditExportFormat;
  /** What is exported, in words (filters; never an identifier). */
  readonly scope: string;
  readonly pages: ExportPages<Row>;
  readonly signer: ExportSigner;
  readonly now: () => number;
  /** Called with the signature once the last byte is out, before the stream closes. */
  readonly signed: (signature: AuditExportSignature) => Promise<void>;
}

const CSV_HEADER = [
  'id',
  'at',
  'user',
  'operation',
  'outcome',
  'status',
  'detail',
  'identifier_hashed',
  'continued',
  'completed',
  'parameters',
  'record_count',
  'subject_count',
  'matched_by',
  // Last, so the columns before keep their places for readers written earlier.
  'token',
  'purpose_category',
  'purpose_reference',
  // The audit page's words for the codes above: people read these, scripts the codes.
  'operation_name',
  'outcome_text',
  'matched_by_text',
  // Appended after the words, for the same reason as `token`.
  'connection',
];

/** The parameters asked, in words: `updatedSince=…; identifier=(hashed)`. */
export function paramsText(record: AuditRecord): string {
  return (record.params ?? [])
    .map((param) => `${param.name}=${param.hashed ? '(hashed)' : (param.value ?? '')}`)
    .join('; ');
}

/** A lookup record's layout (docs/audit-trail.md, "Export layouts"). */
export const AUDIT_RECORD_LAYOUT: ExportLayout<AuditRecord> = {
  csvHeader: CSV_HEADER,
  json: (record) => record,
  csvCells: (record) => [
    record.id,
    record.at,
    record.user,
    record.operation,
    record.outcome,
    record.status,
    record.detail,
    record.identifierHashed,
    record.continued,
    record.completed ?? true,
    paramsText(record),
    record.recordCount,
    record.subjectCount,
    record.matchedBy,
    record.token,
    record.purpose?.category,
    record.purpose?.reference,
    operationTitle(record.operation),
    OUTCOME_LABELS[record.outcome],
    record.matchedBy ? MATCH_TEXT[record.matchedBy] : undefined,
    record.connection,
  ],
};

/** The lookups' export as a byte stream; pull-based, so the store is read only as the client reads. */
export function streamAuditExport(options: AuditExportOptions): ReadableStream<Uint8Array> {
  return streamSignedExport(options, AUDIT_RECORD_LAYOUT);
}

/** An export of rows laid out by `layout`, streamed, hashed and signed as it leaves. */
export function streamSignedExport<Row>(
  options: AuditExportOptions<Row>,
  layout: ExportLayout<Row>,
): ReadableStream<Uint8Array> {
  const csvRow = (row: Row) => `${layout.csvCells(row).map(csvCell).join(',')}\r\n`;
  const encoder = new TextEncoder();
  const digest = createHash('sha256');
  const createdAt = new Date(options.now()).toISOString();
  let bytes = 0;
  let records = 0;
  let started = false;
  let cursor: string | undefined;
  let done = false;

  const emit = (controller: ReadableStreamDefaultController<Uint8Array>, text: string) => {
    const chunk = encoder.encode(text);
    digest.update(chunk);
    bytes += chunk.byteLength;
    controller.enqueue(chunk);
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (done) return;
        let text = '';
        if (!started) {
          started = true;
          text +=
            options.format === 'csv'
              ? `${layout.csvHeader.join(',')}\r\n`
              : `{"exportId":${JSON.stringify(options.id)},"createdAt":${JSON.stringify(createdAt)},"scope":${JSON.stringify(options.scope)},"records":[`;
        }
        const page = await options.pages(cursor, EXPORT_PAGE_SIZE);
        for (const record of page.items) {
          text +=
            options.format === 'csv'
              ? csvRow(record)
              : `${records === 0 ? '\n' : ',\n'}${JSON.stringify(layout.json(record))}`;
          records += 1;
        }
        cursor = page.nextCursor ?? undefined;
        if (page.nextCursor === null) {
          done = true;
          if (options.format === 'json') text += `\n],"count":${records}}\n`;
        }
        if (text) emit(controller, text);
        if (done) {
          await options.signed(
            options.signer.sign({
              exportId: options.id,
              createdAt,
              format: options.format,
              scope: options.scope,
              records,
              bytes,
              sha256: digest.digest('hex'),
            }),
          );
          controller.close();
        }
      },
    },
    // Nothing is read ahead of the client: one page at a time, when asked for.
    { highWaterMark: 0 },
  );
}
