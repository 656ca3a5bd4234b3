// "Export CSV" and "Export JSON" for a search or the filtered trail: each saves the file and its
// detached signature, and says how an auditor checks them.
import { AUDIT_EXPORT_FORMATS, type AuditExportFilters } from '../../../shared/audit-trail';
import { ExportStatus } from '../../../components/ui/export-status';
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
      <ExportStatus
        exporter={exporter}
        saved={(result) => (
          <>
            Saved {result.fileName} ({result.signature.records}{' '}
            {result.signature.records === 1 ? 'record' : 'records'}) and its Ed25519 signature{' '}
            {result.signatureName} (key {result.signature.keyFingerprint}).
          </>
        )}
      />
    </div>
  );
}
