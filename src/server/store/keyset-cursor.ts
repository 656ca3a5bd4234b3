// Paging cursors for lists read newest first by (time, key): the cursor names the last row of a
// page, so the next page starts strictly after it however many rows arrive at the top meanwhile.
// Opaque to the browser (base64url JSON), and checked on the way back in: a cursor is input.

/** A cursor this server did not issue, or one that was tampered with. */
export class InvalidCursorError extends Error {
  override name = 'InvalidCursorError';
}

/** The cursor after the row at `time` (ISO 8601) with `key`. */
export function encodeKeysetCursor(time: string, key: string): string {
  return Buffer.from(JSON.stringify([time, key])).toString('base64url');
}

/**
 * The `[time, key]` a cursor names, the time in the ISO 8601 form the stores keep.
 * Throws InvalidCursorError for anything else, including keys longer than `maxKeyLength`.
 */
export function decodeKeysetCursor(cursor: string, maxKeyLength: number): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      !Number.isNaN(Date.parse(value[0])) &&
      typeof value[1] === 'string' &&
      value[1].length <= maxKeyLength
    ) {
      return [new Date(value[0]).toISOString(), value[1]];
    }
  } catch {
    // fall through
  }
  throw new InvalidCursorError('cursor is not one this server issued');
}
