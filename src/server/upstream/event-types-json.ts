// The body of `GET /api/event-types` built from the upstream's answer text: parsed, checked with
// the shared reader (unknown fields stripped, mistyped ones read as missing) and serialised
// once, so the cache keeps finished text. The answer's size is bounded before this by the
// transport (UPSTREAM_MAX_ANSWER_BYTES).
import { readEventTypes } from '../../shared/event-types';

/**
 * The checked items of the upstream's answer `text` as JSON text, or `undefined` when the answer
 * is not a list of event types at all.
 */
export function checkedEventTypesJson(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const items = readEventTypes(body);
  return items ? JSON.stringify(items) : undefined;
}

/** `{ "items": [...], "fetchedAt": "…" }` as JSON text, from checked items. */
export function eventTypesBody(itemsJson: string, fetchedAt: string): string {
  return `{"items":${itemsJson},"fetchedAt":${JSON.stringify(fetchedAt)}}`;
}
