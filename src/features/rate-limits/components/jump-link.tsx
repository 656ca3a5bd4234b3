// A link to another part of the same page that also moves keyboard focus there: following a
// fragment scrolls, but leaves focus behind in some browsers, so a keyboard user's next Tab would
// start from the top again. No history entry either: Back leaves the page, as people expect.
import type { MouseEvent, ReactNode } from 'react';

export interface JumpLinkProps {
  /** The id of the element to go to; it must be focusable (a link, or tabIndex -1). */
  readonly to: string;
  readonly id?: string;
  readonly className?: string;
  readonly children: ReactNode;
}

/** `<a href="#to">` that scrolls to `to` and focuses it. */
export function JumpLink({ to, id, className, children }: JumpLinkProps) {
  const jump = (event: MouseEvent<HTMLAnchorElement>) => {
    const target = document.getElementById(to);
    if (!target) return;
    event.preventDefault();
    target.scrollIntoView?.({ block: 'start' });
    target.focus({ preventScroll: true });
  };
  return (
    <a id={id} className={className} href={`#${to}`} onClick={jump}>
      {children}
    </a>
  );
}
