// The visible mark for a field the data does not have, so an empty cell never looks like a glitch.

/** A dash that reads as "not set" to assistive technology. */
export function MissingValue({ label = 'not set' }: { label?: string }) {
  return (
    <span className="missing-value">
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
