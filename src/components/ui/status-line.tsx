// One muted line announced politely, for "Loading…" and other progress a region shows in place.
import type { ReactNode } from 'react';

/** A `<p role="status">` in the muted look, e.g. "Loading incidents…". */
export function StatusLine({ children }: { children: ReactNode }) {
  return (
    <p className="muted" role="status">
      {children}
    </p>
  );
}
