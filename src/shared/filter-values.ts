// Limits on filter values that travel from the browser to the upstream, shared so the BFF rejects
// exactly what the SPA would never send.

/** Bounds on one array filter (`modules`, `objectTypes`). */
export const FILTER_LIMITS = {
  /** Most values one filter may carry; the upstream documents no bound, we keep URLs sane. */
  maxValues: 100,
  /** Longest single value; real module and object-type names are far shorter. */
  maxLength: 200,
} as const;

// C0 controls, DEL and C1 controls: never part of a legitimate name, and a classic header- or
// log-injection vector.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** Why a single filter value is unacceptable, or `null` when it is fine. */
export function filterValueProblem(value: string): string | null {
  if (value.trim().length === 0) return 'must not be empty';
  if (value.length > FILTER_LIMITS.maxLength)
    return `must be at most ${FILTER_LIMITS.maxLength} characters`;
  if (CONTROL_CHARACTERS.test(value)) return 'must not contain control characters';
  return null;
}

/** True when `value` contains a control character. */
export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value);
}
