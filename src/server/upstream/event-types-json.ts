// The body of `GET /api/event-types` built from the upstream's answer: parsed, checked with the
// shared reader (unknown fields stripped, mistyped ones read as missing) and serialised once, so
// the cache keeps finished bytes; when the check changed nothing, the answer's own bytes are those
// finished bytes (see `unchangedByReading`). The answer's size is bounded before this by the
// transport (UPSTREAM_MAX_ANSWER_BYTES). Bytes in and out, not text: a large answer is read on a
// worker thread and its result moved back without a copy (answer-parser.ts), and the body goes to
// the socket as it is.
import { isUtf8 } from 'node:buffer';
import { readEventTypes, type EventType } from '../../shared/event-types';

/** UTF-8 JSON in an ArrayBuffer (never a SharedArrayBuffer), as HTTP bodies and workers take it. */
export type JsonBytes = Buffer<ArrayBuffer>;

/**
 * The checked items of the upstream's answer `bytes` (UTF-8 JSON) as UTF-8 JSON, or `undefined`
 * when the answer is not a list of event types at all. `bytes` themselves when reading them
 * changed nothing and they are well-formed UTF-8: serialising the same items again would only
 * cost time and memory (about a third of reading an answer: bench/findings/overhead.md).
 */
export function checkedEventTypesJson(bytes: Buffer): JsonBytes | undefined {
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString());
  } catch {
    return undefined;
  }
  const items = readEventTypes(body);
  if (!items) return undefined;
  return unchangedByReading(body as readonly object[], items) && isUtf8(bytes) && owned(bytes)
    ? bytes
    : Buffer.from(JSON.stringify(items));
}

/** Whether `bytes` are over an ArrayBuffer (as every HTTP body is), not a SharedArrayBuffer. */
const owned = (bytes: Buffer): bytes is JsonBytes => bytes.buffer instanceof ArrayBuffer;

/**
 * Whether `items`, read from `records`, say exactly what `records` say: the reader kept every
 * record as it was (readEventTypes gives a record itself when reading would change nothing), so
 * the answer's text parses to `items`. A code of -0 is the one kept value JSON.stringify writes
 * differently (as 0). Duplicate names in the text are not seen here: the text then parses, in
 * JavaScript as in the check, to its last value.
 */
function unchangedByReading(records: readonly object[], items: readonly EventType[]): boolean {
  return items.every((item, index) => item === records[index] && !Object.is(item.code, -0));
}

const ITEMS_PREFIX = Buffer.from('{"items":');

/** The body of `GET /api/event-types`, and the checked items' part of it. */
export interface EventTypesBody {
  readonly body: JsonBytes;
  /** A view into `body`'s memory, not a copy. */
  readonly items: JsonBytes;
}

/**
 * The body for the upstream's answer `bytes`, fetched at `fetchedAt`, or `undefined` when the
 * answer is not a list of event types at all. Built where the answer is read, so that a large
 * one's copy into its body is made on the worker thread, not on the main one (answer-worker.ts).
 */
export function checkedEventTypesBody(
  bytes: Buffer,
  fetchedAt: string,
): EventTypesBody | undefined {
  const items = checkedEventTypesJson(bytes);
  if (!items) return undefined;
  // `{ "items": [...], "fetchedAt": "…" }`
  return withItems(
    Buffer.concat([ITEMS_PREFIX, items, Buffer.from(bodyEnd(fetchedAt))]),
    fetchedAt,
  );
}

/**
 * `body`, as checkedEventTypesBody built it for `fetchedAt`, with the checked items' part of it: where
 * they are follows from the two, so a body that crossed threads needs nothing else.
 */
export function withItems(body: JsonBytes, fetchedAt: string): EventTypesBody {
  const end = body.length - Buffer.byteLength(bodyEnd(fetchedAt));
  return { body, items: body.subarray(ITEMS_PREFIX.length, end) };
}

/** What follows the items in the body. */
const bodyEnd = (fetchedAt: string) => `,"fetchedAt":${JSON.stringify(fetchedAt)}}`;
