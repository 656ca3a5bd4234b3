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
      {/* The check itself is a command for whoever audits with the console's public key: it
      lives in the audit trail's documentation ("Verifying with standard tools alone"). */}
      {saved(exporter.data)} Anyone holding the console’s public key can check that they are
      unchanged.
    </p>
  ) : null;
}
