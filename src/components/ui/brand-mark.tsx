// The console's logo and name, drawn the same in the page header and on the sign-in card.

/** The shield logo beside "Privacy API Console"; `className` places it, `size` is the logo's px. */
export function BrandMark({ className, size }: { className: string; size: number }) {
  return (
    <div className={className}>
      <svg aria-hidden="true" viewBox="0 0 32 32" width={size} height={size}>
        <rect width="32" height="32" rx="7" fill="currentColor" />
        <path d="M16 6l8 3v6c0 5-3.4 9.3-8 11-4.6-1.7-8-6-8-11V9z" fill="#fff" />
      </svg>
      <span>Privacy API Console</span>
    </div>
  );
}
