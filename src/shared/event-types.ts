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
