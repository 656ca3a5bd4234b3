// "Export CSV" and "Export JSON" of the incident list: every incident its filters match, made by
// the BFF (not only the pages loaded here), and a line saying what was saved or why not.
import { useMutation } from '@tanstack/react-query';
import { StatusLine } from '../../../components/ui/status-line';
import { saveFile } from '../../../lib/csv';
import { INCIDENT_EXPORT_FORMATS, type IncidentExportFormat } from '../../../shared/incident';
import { fetchIncidentExport } from '../api/rate-limits-api';
import type { IncidentFilters } from '../incident-url-state';

/** The buttons for the list as `filters` shape it. */
export function IncidentExportButtons({
  connection,
  filters,
}: {
  /** Whose incidents are exported. */
  connection: string;
  filters: IncidentFilters;
}) {
  const exporter = useMutation({
    mutationFn: async (format: IncidentExportFormat) => {
      const file = await fetchIncidentExport(connection, filters, format);
      saveFile(file.fileName, file.blob);
      return file.fileName;
    },
  });
  return (
    <div className="incident-export">
      <div role="group" aria-label="Export the incidents" className="incident-export-buttons">
        {INCIDENT_EXPORT_FORMATS.map((format) => (
          <button
            key={format}
            type="button"
            className="button button-small"
            disabled={exporter.isPending}
            onClick={() => exporter.mutate(format)}
          >
            Export {format.toUpperCase()}
          </button>
        ))}
      </div>
      {exporter.isPending ? <StatusLine>Exporting…</StatusLine> : null}
      {exporter.isError ? (
        <p role="alert" className="field-error">
          The export failed: {exporter.error.message}
        </p>
      ) : null}
      {exporter.data ? (
        <p className="muted" role="status">
          Saved {exporter.data}: every incident these filters match, times in UTC.
        </p>
      ) : null}
    </div>
  );
}
