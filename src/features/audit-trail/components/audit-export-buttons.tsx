// "Export CSV" and "Export JSON" for a search, the filtered trail or the filtered administrative
// changes: each saves the file and its detached signature, and says how an auditor checks them.
import { AUDIT_EXPORT_FORMATS } from '../../../shared/audit-trail';
import { ExportStatus } from '../../../components/ui/export-status';
import { useAuditExport, type AuditExportSubject } from '../api/audit-trail-api';

export interface AuditExportButtonsProps {
  /** What to export: the identifier searched for, the lookups' filters, or the changes'. */
  readonly what: AuditExportSubject;
  /** The accessible name's subject, e.g. "the search results". */
  readonly label: string;
}

/** Export buttons and what the last export produced. */
export function AuditExportButtons({ what, label }: AuditExportButtonsProps) {
  const exporter = useAuditExport();
  const noun = 'changes' in what ? ['change', 'changes'] : ['record', 'records'];
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
            {noun[result.signature.records === 1 ? 0 : 1]}) and its Ed25519 signature{' '}
            {result.signatureName} (key {result.signature.keyFingerprint}).
          </>
        )}
      />
    </div>
  );
}
