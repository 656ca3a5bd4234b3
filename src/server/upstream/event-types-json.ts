// The body of `GET /api/event-types` built from the upstream's answer text: parsed, checked with
// the shared zod schema (unknown fields stripped, mistyped ones read as missing) and serialised
// once, so the cache keeps finished text. The answer's size is bounded before this by the
// transport (UPSTREAM_MAX_ANSWER_BYTES).
import { UpstreamEventTypesSchema } from '../../shared/event-types';

/**
 * `{ "items": [...], "fetchedAt": "…" }` as JSON text for the upstream's answer `text`, or
 * `undefined` when the answer is not a list of event types at all.
 */
export function eventTypesResponseJson(text: string, fetchedAt: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = UpstreamEventTypesSchema.safeParse(body);
  return parsed.success ? JSON.stringify({ items: parsed.data, fetchedAt }) : undefined;
}
