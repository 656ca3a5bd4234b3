// "Export CSV" and "Export JSON" for a search or the filtered trail: each saves the file and its
// detached signature, and says how an auditor checks them.
import { AUDIT_EXPORT_FORMATS, type AuditExportFilters } from '../../../shared/audit-trail';
import { StatusLine } from '../../../components/ui/status-line';
import { useAuditExport } from '../api/audit-trail-api';

export interface AuditExportButtonsProps {
  /** What to export: the identifier searched for, or the filters. */
  readonly what: { identifier: string } | { filters: AuditExportFilters };
  /** The accessible name's subject, e.g. "the search results". */
  readonly label: string;
}

/** Export buttons and what the last export produced. */
export function AuditExportButtons({ what, label }: AuditExportButtonsProps) {
  const exporter = useAuditExport();
  return (
    <div className="audit-export">
      <div className="audit-export-buttons" role="group" aria-label={`Export ${label}`}>
        {AUDIT_EXPORT_FORMATS.map((format) => (
          <button
            key={format}
            type="button"
            className="button button-small"
            disabled={exporter.isPending}
            onClick={() => exporter.mutate({ format, ...what })}
          >
            Export {format.toUpperCase()}
          </button>
        ))}
      </div>
      {exporter.isPending ? (
        <StatusLine>Exporting…</StatusLine>
      ) : exporter.isError ? (
        <p role="alert" className="field-error">
          The export failed: {exporter.error.message}
        </p>
      ) : exporter.data ? (
        <p className="muted" role="status">
          Saved {exporter.data.fileName} ({exporter.data.signature.records}{' '}
          {exporter.data.signature.records === 1 ? 'record' : 'records'}) and its Ed25519 signature{' '}
          {exporter.data.signatureName} (key {exporter.data.signature.keyFingerprint}). Check them
          with <code>npm run audit -- verify-export FILE SIGNATURE</code>.
        </p>
      ) : null}
    </div>
  );
}
