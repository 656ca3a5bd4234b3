// The head of every page: its title (the page's accessible name), a line on what it is for, and
// room on the right for a page-wide indicator.
import type { ReactNode } from 'react';

export interface PageHeaderProps {
  /** The h1's id: the page's `aria-labelledby` points at it. */
  titleId: string;
  title: ReactNode;
  /** What the page shows, in a sentence or two. */
  children: ReactNode;
  /** Shown beside the title, e.g. the live-stream indicator. */
  aside?: ReactNode;
}

/** The page's h1 with its description. */
export function PageHeader({ titleId, title, children, aside }: PageHeaderProps) {
  return (
    <header className="page-header">
      <div>
        <h1 id={titleId}>{title}</h1>
        <p className="muted">{children}</p>
      </div>
      {aside}
    </header>
  );
}
