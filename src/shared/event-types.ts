// The activity-log event type and the BFF's answer for it: one schema for the upstream's answer
// (validated in the BFF) and for the BFF's answer (validated in the SPA).
import * as z from 'zod/mini';
import { PLATFORM_OPERATIONS } from './platform-operations';

/**
 * One event type. Every field is optional upstream, so every field is optional here; a field of
 * the wrong type is read as missing rather than dropping the whole record (a tolerant reader: the
 * console shows "—" for it). Unknown fields are stripped.
 */
export const EventTypeSchema = z.object({
  code: z.catch(z.optional(z.int()), undefined),
  value: z.catch(z.optional(z.string()), undefined),
  objectTypeName: z.catch(z.optional(z.string()), undefined),
  moduleName: z.catch(z.optional(z.string()), undefined),
});
export type EventType = z.infer<typeof EventTypeSchema>;

/** What the upstream's event-types operation answers with: a bare array. */
export const UpstreamEventTypesSchema = z.array(EventTypeSchema);

/**
 * Reads a list of event types as UpstreamEventTypesSchema does, in one plain pass: the same
 * records, the same fields read as missing, undefined where the schema fails (not an array, or an
 * entry that is not an object). Why not the schema itself: profiled, zod's four `catch` schemas
 * per record took 43 ms to read 10,000 event types the first time (3 ms this way), on the SPA's
 * path to its first rows and on every uncached answer of the BFF. The schema stays the
 * description (the API documents are generated from it), and `event-types.test.ts` feeds both the
 * same hostile inputs and requires the same result.
 *
 * `value` is parsed JSON. A record that already says only what its reading would keep is the item
 * itself, not a copy of it: the usual answer is read without building a second object per event
 * type (bench/findings/overhead.md, "What a request allocates").
 */
export function readEventTypes(value: unknown): EventType[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items: EventType[] = new Array<EventType>(value.length);
  for (let index = 0; index < value.length; index += 1) {
    const entry: unknown = value[index];
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
    items[index] = readsAsItIs(entry) ? entry : readEventType(entry as Record<string, unknown>);
  }
  return items;
}

/** Whether the reader keeps `value` as the field `name`: one of the four, with a value of its type. */
function keeps(name: string, value: unknown): boolean {
  switch (name) {
    case 'code':
      return Number.isSafeInteger(value);
    case 'value':
    case 'objectTypeName':
    case 'moduleName':
      return typeof value === 'string';
    default:
      return false;
  }
}

/** `entry`'s fields that read as they are; a mistyped one is read as missing. */
function readEventType(entry: Record<string, unknown>): EventType {
  const { code, value, objectTypeName, moduleName } = entry;
  const item: EventType = {};
  if (keeps('code', code)) item.code = code as number;
  if (keeps('value', value)) item.value = value as string;
  if (keeps('objectTypeName', objectTypeName)) item.objectTypeName = objectTypeName as string;
  if (keeps('moduleName', moduleName)) item.moduleName = moduleName as string;
  return item;
}

/**
 * Whether reading `entry` would keep every field it has and add none: a plain object (as JSON.parse
 * makes them) whose every enumerable field, own or inherited, is kept. for…in: no array of names
 * per record.
 */
function readsAsItIs(entry: object): entry is EventType {
  if (Object.getPrototypeOf(entry) !== Object.prototype) return false;
  const fields = entry as Record<string, unknown>;
  for (const name in fields) if (!keeps(name, fields[name])) return false;
  return true;
}

/**
 * Present when the BFF answered with the last good list because the platform could not be asked
 * now (a rate-limit block, a failure): why, and when to try again. `fetchedAt` is then the time
 * of that last good list.
 */
const StaleEventTypesSchema = z.object({
  /** The problem that kept the BFF from a fresh list, in words (its title). */
  reason: z.string(),
  /** Its HTTP status (429 while rate limited). */
  status: z.int(),
  /** When a fresh list may be asked for again, for a rate limit. */
  retryAfterSeconds: z.optional(z.int()),
  /** The 429 incident behind it, when there is one. */
  incidentId: z.optional(z.string()),
});
export type StaleEventTypes = z.infer<typeof StaleEventTypesSchema>;

/** What `GET /api/event-types` answers with. */
export const EventTypesResponseSchema = z.object({
  items: z.array(EventTypeSchema),
  fetchedAt: z.iso.datetime(),
  stale: z.optional(StaleEventTypesSchema),
});
export type EventTypesResponse = z.infer<typeof EventTypesResponseSchema>;

/** EventTypesResponseSchema with its list read by readEventTypes: what the SPA checks with. */
export const EventTypesResponseReader = z.extend(EventTypesResponseSchema, {
  items: z.pipe(
    z.unknown(),
    z.transform((value, context) => {
      const items = readEventTypes(value);
      if (items) return items;
      context.issues.push({ code: 'custom', message: 'not a list of event types', input: value });
      return z.NEVER;
    }),
  ),
});

/** The columns of the event-types table, in display order, with their labels. */
export const EVENT_TYPE_COLUMNS = [
  { key: 'code', label: 'Code' },
  { key: 'value', label: 'Name' },
  { key: 'objectTypeName', label: 'Object type' },
  { key: 'moduleName', label: 'Module' },
] as const satisfies ReadonlyArray<{ key: keyof EventType; label: string }>;
export type EventTypeColumnKey = (typeof EVENT_TYPE_COLUMNS)[number]['key'];

/** The upstream operation of docs/platform-contract.md (the vendor's audit document's id). */
export const EVENT_TYPES_OPERATION = {
  id: 'event-types',
  operationId: 'getEventTypeFilterOptionsGET',
  ...PLATFORM_OPERATIONS.getEventTypeFilterOptionsGET,
} as const;
