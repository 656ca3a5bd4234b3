// The body of `GET /api/event-types` built from the upstream's answer text: parsed, checked with
// the shared zod schema (unknown fields stripped, mistyped ones read as missing) and serialised
// once, so the cache keeps finished text. The answer's size is bounded before this by the
// transport (UPSTREAM_MAX_ANSWER_BYTES).
//
// An answer identical to the last one read for the same filters is recognised by its SHA-256 and
// not read again: the list changes when the platform adds event types, not between two fetches,
// and reading it costs far more than hashing it (about 0.6 ms against 0.04 ms for 500 event
// types; a second against a few milliseconds for a 16 MB list).
import { createHash } from 'node:crypto';
import { UpstreamEventTypesSchema } from '../../shared/event-types';

/** What reading an answer found. */
export type EventTypesReading =
  /** The same text as the answer whose digest was given: its checked list still stands. */
  | { readonly kind: 'unchanged'; readonly digest: string }
  /** A list of event types: the checked items as JSON text. */
  | { readonly kind: 'list'; readonly digest: string; readonly itemsJson: string }
  /** Not a list of event types at all. */
  | { readonly kind: 'invalid' };

/** The SHA-256 of an answer's text, base64. */
function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

/** Reads the upstream's answer `text`; `knownDigest` is that of the last list read for it. */
export function readEventTypesAnswer(
  text: string,
  knownDigest: string | undefined,
): EventTypesReading {
  const digest = digestOf(text);
  if (digest === knownDigest) return { kind: 'unchanged', digest };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { kind: 'invalid' };
  }
  const parsed = UpstreamEventTypesSchema.safeParse(body);
  return parsed.success
    ? { kind: 'list', digest, itemsJson: JSON.stringify(parsed.data) }
    : { kind: 'invalid' };
}

/** `{ "items": [...], "fetchedAt": "…" }` as JSON text, from checked items. */
export function eventTypesBody(itemsJson: string, fetchedAt: string): string {
  return `{"items":${itemsJson},"fetchedAt":${JSON.stringify(fetchedAt)}}`;
}
