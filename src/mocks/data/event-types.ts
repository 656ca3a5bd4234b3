// Deterministic, realistic activity-log event types for the mock upstream: the same count always
// gives the same list, so tests, screenshots and benchmarks see the same data on every run.
import type { EventType } from '../../shared/event-types';
import { EVENT_QUALIFIERS, PRIVACY_TAXONOMY } from './privacy-taxonomy';

/** How many event types the mock serves when nobody asks for another number. */
export const DEFAULT_EVENT_TYPE_COUNT = 480;

/** The largest data set the generator promises unique codes for (`MOCK_EVENT_TYPES` is capped here). */
export const MAX_EVENT_TYPE_COUNT = 100_000;

interface BaseEvent {
  moduleIndex: number;
  objectTypeIndex: number;
  actionIndex: number;
}

// Code layout: tier * 100_000 + (module + 1) * 1_000 + objectType * 40 + action. Every part has
// its own digits, so codes are unique by construction and a row keeps its code whatever the count.
const CODE_MODULE_STRIDE = 1_000;
const CODE_OBJECT_TYPE_STRIDE = 40;
const CODE_TIER_STRIDE = 100_000;

/**
 * All module x object type x action combinations, ordered so that any prefix samples every module
 * in proportion to its size (item j of a module of n items sorts at j / n). The default 480 rows
 * therefore cover every module and object type, with bigger modules holding more rows.
 */
const BASE_EVENTS: readonly BaseEvent[] = buildBaseEvents();

function buildBaseEvents(): BaseEvent[] {
  if (PRIVACY_TAXONOMY.length >= CODE_MODULE_STRIDE / 10) throw new Error('too many modules');
  const ranked: Array<BaseEvent & { rank: number }> = [];
  PRIVACY_TAXONOMY.forEach((module, moduleIndex) => {
    const own: BaseEvent[] = [];
    const longest = Math.max(...module.objectTypes.map((objectType) => objectType.actions.length));
    // Action-major within a module, so its first rows are spread over all its object types.
    for (let actionIndex = 0; actionIndex < longest; actionIndex += 1) {
      module.objectTypes.forEach((objectType, objectTypeIndex) => {
        if (objectTypeIndex * CODE_OBJECT_TYPE_STRIDE >= CODE_MODULE_STRIDE) {
          throw new Error(`too many object types in ${module.name}`);
        }
        if (objectType.actions.length > CODE_OBJECT_TYPE_STRIDE) {
          throw new Error(`too many actions for ${objectType.name}`);
        }
        if (actionIndex < objectType.actions.length) {
          own.push({ moduleIndex, objectTypeIndex, actionIndex });
        }
      });
    }
    own.forEach((event, position) => ranked.push({ ...event, rank: position / own.length }));
  });
  ranked.sort((a, b) => a.rank - b.rank || a.moduleIndex - b.moduleIndex);
  return ranked.map(({ moduleIndex, objectTypeIndex, actionIndex }) => ({
    moduleIndex,
    objectTypeIndex,
    actionIndex,
  }));
}

// Beyond the base combinations, each further "tier" repeats them with a channel qualifier.
function qualifierFor(tier: number): string {
  if (tier === 0) return '';
  const round = Math.floor((tier - 1) / EVENT_QUALIFIERS.length);
  const qualifier = EVENT_QUALIFIERS[(tier - 1) % EVENT_QUALIFIERS.length] ?? '';
  return round === 0 ? qualifier : `${qualifier} (Tenant ${round + 1})`;
}

// Fixed positions (not random draws) decide which records lack a field, about 2.9% of rows in all:
// ~1% without module, ~1.1% without object type, ~0.5% without name, ~0.4% without code.
function lacksModule(index: number): boolean {
  return index % 97 === 13;
}
function lacksObjectType(index: number): boolean {
  return index % 89 === 41;
}
function lacksValue(index: number): boolean {
  return index % 211 === 100;
}
function lacksCode(index: number): boolean {
  return index % 240 === 7;
}

/**
 * Builds `count` event types. Deterministic: the same count gives an identical list, and a smaller
 * count gives a prefix of a larger one (same rows, same codes). Codes are unique integers; a few
 * records lack an optional field, and a few names contain a comma or double quotes. Module and
 * object type names never contain a comma.
 *
 * @param count how many rows, 0 to {@link MAX_EVENT_TYPE_COUNT}; defaults to {@link DEFAULT_EVENT_TYPE_COUNT}
 */
export function generateEventTypes(count: number = DEFAULT_EVENT_TYPE_COUNT): EventType[] {
  if (!Number.isInteger(count) || count < 0 || count > MAX_EVENT_TYPE_COUNT) {
    throw new RangeError(`count must be an integer from 0 to ${MAX_EVENT_TYPE_COUNT}`);
  }
  const result: EventType[] = new Array<EventType>(count);
  for (let index = 0; index < count; index += 1) {
    const tier = Math.floor(index / BASE_EVENTS.length);
    const base = BASE_EVENTS[index % BASE_EVENTS.length] as BaseEvent;
    const module = PRIVACY_TAXONOMY[base.moduleIndex]!;
    const objectType = module.objectTypes[base.objectTypeIndex]!;
    const action = objectType.actions[base.actionIndex]!;

    const eventType: EventType = {};
    if (!lacksCode(index)) {
      eventType.code =
        tier * CODE_TIER_STRIDE +
        (base.moduleIndex + 1) * CODE_MODULE_STRIDE +
        base.objectTypeIndex * CODE_OBJECT_TYPE_STRIDE +
        base.actionIndex;
    }
    if (!lacksValue(index)) eventType.value = `${objectType.name} ${action}${qualifierFor(tier)}`;
    if (!lacksObjectType(index)) eventType.objectTypeName = objectType.name;
    if (!lacksModule(index)) eventType.moduleName = module.name;
    result[index] = eventType;
  }
  return result;
}
