// Record ids that sort in the order this process made them: RFC 9562 UUID version 7 (the record's
// time in milliseconds first), with a counter in the random bits so that two records of the same
// millisecond still sort as they were written. The trail is read "newest first" by (at, id), so a
// random tie-breaker would show two lookups of one millisecond in either order.
import { randomBytes } from 'node:crypto';

const COUNTER_BITS = 12;
const COUNTER_LIMIT = 1 << COUNTER_BITS;

/** Time written into the last id (may run ahead of the clock after a burst). */
let idMs = -1;
/** The time the last id was asked for. */
let clockMs = -1;
let counter = 0;

/**
 * A UUIDv7 for a record made at `ms` (epoch milliseconds). Past 4,096 ids in one millisecond the
 * id's time runs a millisecond ahead of the clock (RFC 9562 §6.2, a borrowed timestamp) instead of
 * restarting the counter, so a burst keeps its order. An earlier `ms` than the last one asked for
 * starts from that time: ids sort by time first.
 */
export function sortableId(ms: number): string {
  const now = Math.max(0, Math.trunc(ms));
  if (now > idMs || now < clockMs) {
    // A new millisecond starts low, leaving room to count up within it.
    idMs = now;
    counter = randomBytes(1)[0]! & 0x7f;
  } else if (counter + 1 < COUNTER_LIMIT) {
    counter += 1;
  } else {
    idMs += 1;
    counter = 0;
  }
  clockMs = now;
  const time = idMs.toString(16).padStart(12, '0').slice(-12);
  const version = (0x7000 | counter).toString(16);
  const random = randomBytes(8);
  random[0] = (random[0]! & 0x3f) | 0x80; // the RFC 9562 variant
  const tail = random.toString('hex');
  return `${time.slice(0, 8)}-${time.slice(8)}-${version}-${tail.slice(0, 4)}-${tail.slice(4)}`;
}
