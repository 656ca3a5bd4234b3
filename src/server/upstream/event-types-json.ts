// The body of `GET /api/event-types` built from the upstream's answer: parsed, checked with the
// shared reader (unknown fields stripped, mistyped ones read as missing) and serialised once, so
// the cache keeps finished bytes. The answer's size is bounded before this by the transport
// (UPSTREAM_MAX_ANSWER_BYTES). Bytes in and out, not text: a large answer is read on a worker
// thread and its result moved back without a copy (answer-parser.ts), and the body goes to the
// socket as it is.
import { readEventTypes } from '../../shared/event-types';

/** UTF-8 JSON in an ArrayBuffer (never a SharedArrayBuffer), as HTTP bodies and workers take it. */
export type JsonBytes = Buffer<ArrayBuffer>;

/**
 * The checked items of the upstream's answer `bytes` (UTF-8 JSON) as UTF-8 JSON, or `undefined`
 * when the answer is not a list of event types at all.
 */
export function checkedEventTypesJson(bytes: Buffer): JsonBytes | undefined {
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString());
  } catch {
    return undefined;
  }
  const items = readEventTypes(body);
  return items ? Buffer.from(JSON.stringify(items)) : undefined;
}

const ITEMS_PREFIX = Buffer.from('{"items":');

/**
 * `{ "items": [...], "fetchedAt": "…" }` as UTF-8 JSON, from checked items; `items` is the items'
 * part of it, a view into the same memory, not a copy.
 */
export function eventTypesBody(
  itemsJson: Uint8Array,
  fetchedAt: string,
): { body: JsonBytes; items: JsonBytes } {
  const rest = Buffer.from(`,"fetchedAt":${JSON.stringify(fetchedAt)}}`);
  const body = Buffer.concat([ITEMS_PREFIX, itemsJson, rest]);
  return { body, items: body.subarray(ITEMS_PREFIX.length, body.length - rest.length) };
}
