// A button that keeps keyboard focus while it is unavailable: a `disabled` button that disables
// itself on click throws focus back to the page's start, so the keyboard user loses their place.
// This one says "unavailable" with aria-disabled and ignores clicks instead.
import type { ButtonHTMLAttributes } from 'react';

export interface ActionButtonProps extends Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'disabled' | 'type'
> {
  /** True while the action cannot run (busy, waiting): focusable, announced, and inert. */
  unavailable?: boolean;
}

/** `<button type="button">` with {@link ActionButtonProps.unavailable} instead of `disabled`. */
export function ActionButton({ unavailable = false, onClick, ...rest }: ActionButtonProps) {
  return (
    <button
      type="button"
      {...rest}
      aria-disabled={unavailable || undefined}
      onClick={unavailable ? (event) => event.preventDefault() : onClick}
    />
  );
}
