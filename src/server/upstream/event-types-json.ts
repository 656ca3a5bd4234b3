// The body of `GET /api/event-types` built from the upstream's answer text. The zod schema is the
// definition of what passes; when the answer is already exactly what the schema would return,
// the upstream's own text is reused instead of parsing it into objects and serialising them again
// (the uncached path's latency bar of PRODUCT.md §9 depends on it).
import { UpstreamEventTypesSchema } from '../../shared/event-types';
import { isCanonicalEventTypeListText } from './event-type-list-scan';

const KNOWN_FIELDS = new Set(['code', 'value', 'objectTypeName', 'moduleName']);

/**
 * True when `items` parses to itself under UpstreamEventTypesSchema: an array of plain objects
 * with only the four known fields, each of its documented type. Anything else (an unknown field
 * to strip, a null or mistyped field to read as missing) takes the schema's path.
 */
export function isCanonicalEventTypeList(items: unknown): items is unknown[] {
  if (!Array.isArray(items)) return false;
  for (const item of items) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
    for (const key in item) {
      if (!KNOWN_FIELDS.has(key)) return false;
      const value = (item as Record<string, unknown>)[key];
      if (key === 'code' ? !Number.isSafeInteger(value) : typeof value !== 'string') return false;
    }
  }
  return true;
}

/**
 * `{ "items": [...], "fetchedAt": "…" }` as JSON text for the upstream's answer `text`, or
 * `undefined` when the answer is not a list of event types at all.
 */
export function eventTypesResponseJson(text: string, fetchedAt: string): string | undefined {
  // The usual case, checked on the text itself: no objects built, nothing to collect.
  if (isCanonicalEventTypeListText(text)) {
    return `{"items":${text.trim()},"fetchedAt":${JSON.stringify(fetchedAt)}}`;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (isCanonicalEventTypeList(body)) {
    // `text` is valid JSON (it just parsed) holding exactly the validated list.
    return `{"items":${text.trim()},"fetchedAt":${JSON.stringify(fetchedAt)}}`;
  }
  const parsed = UpstreamEventTypesSchema.safeParse(body);
  return parsed.success ? JSON.stringify({ items: parsed.data, fetchedAt }) : undefined;
}
