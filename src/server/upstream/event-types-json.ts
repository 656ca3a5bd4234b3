// The body of `GET /api/event-types` built from the upstream's answer text. The zod schema is the
// definition of what passes; when the answer is already exactly what the schema would return,
// the upstream's own text is reused instead of parsing it into objects and serialising them again
// (the uncached path's latency bar of docs/product.md §9 depends on it).
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
 * Upstream texts lately found to be canonical, by filter key. The event types change rarely, so
 * most answers repeat the last one to the letter, and one string comparison (a memory compare)
 * then stands in for the scan, which was the largest cost left on the uncached path. Every
 * request still goes upstream and answers with what the upstream said this time; only the
 * verdict on identical text is reused. Bounded in total characters so wide lists and many filter
 * combinations cannot grow memory.
 */
export class CanonicalTextMemo {
  readonly #texts = new Map<string, string>();
  readonly #maxChars: number;
  #chars = 0;

  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  /** True when `text` is exactly the text last remembered for `key`. */
  has(key: string, text: string): boolean {
    return this.#texts.get(key) === text;
  }

  /** Remembers `text` as canonical for `key`, evicting the oldest entries past the bound. */
  remember(key: string, text: string): void {
    this.#forget(key);
    if (text.length > this.#maxChars) return;
    this.#texts.set(key, text);
    this.#chars += text.length;
    for (const oldest of this.#texts.keys()) {
      if (this.#chars <= this.#maxChars) break;
      this.#forget(oldest);
    }
  }

  #forget(key: string): void {
    const previous = this.#texts.get(key);
    if (previous === undefined) return;
    this.#chars -= previous.length;
    this.#texts.delete(key);
  }
}

/**
 * `{ "items": [...], "fetchedAt": "…" }` as JSON text for the upstream's answer `text`, or
 * `undefined` when the answer is not a list of event types at all. With a memo and a key, an
 * answer identical to the last canonical one for that key skips the scan.
 */
export function eventTypesResponseJson(
  text: string,
  fetchedAt: string,
  memo?: { memo: CanonicalTextMemo; key: string },
): string | undefined {
  // Once `text` is known to be exactly what the schema would return, it goes on as it is (and is
  // remembered as the newest canonical text for the key).
  const passOn = () => {
    memo?.memo.remember(memo.key, text);
    return `{"items":${text.trim()},"fetchedAt":${JSON.stringify(fetchedAt)}}`;
  };
  if (memo?.memo.has(memo.key, text)) return passOn();
  // The usual case, checked on the text itself: no objects built, nothing to collect.
  if (isCanonicalEventTypeListText(text)) return passOn();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  // `text` is valid JSON (it just parsed); pass it on when it holds exactly the validated list.
  if (isCanonicalEventTypeList(body)) return passOn();
  const parsed = UpstreamEventTypesSchema.safeParse(body);
  return parsed.success ? JSON.stringify({ items: parsed.data, fetchedAt }) : undefined;
}
