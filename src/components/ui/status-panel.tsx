// A boxed message for a whole region's state (loading, empty, error), in the shared look.
import type { ReactNode } from 'react';

export interface StatusPanelProps {
  title: ReactNode;
  children?: ReactNode;
  /** Buttons or links offered as the way forward. */
  actions?: ReactNode;
  tone?: 'neutral' | 'warning' | 'danger';
  /**
   * `alert` for failures the user must notice, `status` for polite news such as loading; leave it
   * out for a state that is simply what the page shows.
   */
  role?: 'alert' | 'status';
  /** Heading level of the title, so the panel fits the page outline (1: the panel is the page). */
  headingLevel?: 1 | 2 | 3;
  busy?: boolean;
}

/** A titled panel with an optional body and actions. */
export function StatusPanel({
  title,
  children,
  actions,
  tone = 'neutral',
  role,
  headingLevel = 2,
  busy,
}: StatusPanelProps) {
  const Heading = (['h1', 'h2', 'h3'] as const)[headingLevel - 1] ?? 'h2';
  return (
    <div className="status-panel" data-tone={tone} role={role} aria-busy={busy || undefined}>
      <Heading>{title}</Heading>
      {children}
      {actions ? <div className="status-panel-actions">{actions}</div> : null}
    </div>
  );
}
