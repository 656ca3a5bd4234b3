// Reading a Retry-After value, which RFC 9110 allows as delay-seconds or as an HTTP date.

/**
 * Seconds to wait according to a Retry-After header value, rounded up, or `undefined` when the
 * value is missing or unreadable. A date in the past means 0.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number,
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date) || !/[a-z]/i.test(trimmed)) return undefined;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}
