// Record ids that sort in the order this process made them: RFC 9562 UUID version 7 (the record's
// time in milliseconds first), with a counter in the random bits so that two records of the same
// millisecond still sort as they were written. The trail is read "newest first" by (at, id), so a
// random tie-breaker would show two lookups of one millisecond in either order.
import { randomBytes } from 'node:crypto';

const COUNTER_BITS = 12;
const COUNTER_LIMIT = 1 << COUNTER_BITS;

let lastMs = -1;
let counter = 0;

/** A UUIDv7 for a record made at `ms` (epoch milliseconds). */
export function sortableId(ms: number): string {
  if (ms === lastMs && counter + 1 < COUNTER_LIMIT) {
    counter += 1;
  } else {
    // A new millisecond starts low, leaving room to count up within it.
    counter = ms === lastMs ? 0 : randomBytes(1)[0]! & 0x7f;
    lastMs = ms;
  }
  const time = Math.max(0, Math.trunc(ms)).toString(16).padStart(12, '0').slice(-12);
  const version = (0x7000 | counter).toString(16);
  const random = randomBytes(8);
  random[0] = (random[0]! & 0x3f) | 0x80; // the RFC 9562 variant
  const tail = random.toString('hex');
  return `${time.slice(0, 8)}-${time.slice(8)}-${version}-${tail.slice(0, 4)}-${tail.slice(4)}`;
}
