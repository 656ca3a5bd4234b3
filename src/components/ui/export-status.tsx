// What the last signed export did, below its buttons: in progress, failed (saying why), or saved
// with its signature and how to check them.
import type { ReactNode } from 'react';
import type { SignedExportResult } from '../../lib/signed-export';
import { StatusLine } from './status-line';

export interface ExportStatusProps {
  readonly exporter: {
    readonly isPending: boolean;
    readonly isError: boolean;
    readonly error: Error | null;
    readonly data?: SignedExportResult | undefined;
  };
  /** The sentence saying what was saved. */
  readonly saved: (result: SignedExportResult) => ReactNode;
}

/** The export's state in one line. */
export function ExportStatus({ exporter, saved }: ExportStatusProps) {
  if (exporter.isPending) return <StatusLine>Exporting…</StatusLine>;
  if (exporter.isError) {
    return (
      <p role="alert" className="field-error">
        The export failed: {exporter.error?.message}
      </p>
    );
  }
  return exporter.data ? (
    <p className="muted" role="status">
      {saved(exporter.data)} Check them with{' '}
      <code>npm run audit -- verify-export FILE SIGNATURE</code>.
    </p>
  ) : null;
}
