// The rules a lookup's parameters must meet, from the catalog: the BFF enforces them before
// anything is sent upstream, and the SPA's form shows the same messages inline as you type.
import {
  IDENTIFIER_MAX_LENGTH,
  type DataSubjectOperation,
  type OperationParam,
} from './data-subject-operations';

// C0 controls, DEL and C1 controls: never part of an identifier, and a header-injection vector.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** True when `value` holds a control character: never part of an identifier the console sends. */
export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value);
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))$/;
const INTEGER = /^\d{1,9}$/;
const DAY_MS = 86_400_000;

/** Parses an ISO 8601 date or date-time with a zone to epoch ms; undefined when it is not one. */
export function parseIsoDateTime(value: string): number | undefined {
  const date = DATE_ONLY.exec(value) ?? DATE_TIME.exec(value);
  if (!date) return undefined;
  const [, y, m, d, hh = '00', mm = '00', ss = '00'] = date;
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  const calendar = new Date(Date.UTC(year, month - 1, day));
  // Date.parse rolls 2025-02-30 over to March; a typo must not become another day.
  if (
    calendar.getUTCFullYear() !== year ||
    calendar.getUTCMonth() !== month - 1 ||
    calendar.getUTCDate() !== day ||
    Number(hh) > 23 ||
    Number(mm) > 59 ||
    Number(ss) > 59
  ) {
    return undefined;
  }
  const ms = Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** True when `value` could travel in an HTTP header as it is (Latin-1, no controls). */
function headerSafe(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    if (value.charCodeAt(index) > 0xff) return false;
  }
  return true;
}

/** Why `value` (already trimmed) is not acceptable for `param`, or null when it is. */
export function paramValueProblem(param: OperationParam, value: string): string | null {
  if (value === '') return param.required ? 'is required' : null;
  switch (param.format) {
    case 'identifier':
      if (value.length > IDENTIFIER_MAX_LENGTH) {
        return `must be at most ${IDENTIFIER_MAX_LENGTH} characters`;
      }
      if (hasControlCharacters(value)) return 'must not contain control characters';
      if (param.location === 'header' && !headerSafe(value)) {
        return 'can only contain Western European (Latin-1) characters';
      }
      return null;
    case 'uuid':
      return UUID.test(value)
        ? null
        : 'must be a UUID such as 3f2504e0-4f89-41d3-9a0c-0305e82c3301';
    case 'id':
      return SAFE_ID.test(value)
        ? null
        : 'must be letters, digits, ".", "_", "~" or "-" (at most 128)';
    case 'date-time':
      return parseIsoDateTime(value) === undefined
        ? 'must be an ISO 8601 date or date and time with a zone, e.g. 2026-01-31 or 2026-01-31T09:00:00Z'
        : null;
    case 'integer': {
      const min = param.min ?? 0;
      const max = param.max ?? 1_000_000_000;
      if (!INTEGER.test(value) || Number(value) < min || Number(value) > max) {
        return `must be a whole number from ${min} to ${max}`;
      }
      return null;
    }
    case 'enum':
      return (param.values ?? []).includes(value)
        ? null
        : `must be one of ${(param.values ?? []).join(', ')}`;
    case 'boolean':
      return value === 'true' || value === 'false' ? null : 'must be true or false';
  }
}

/** The value as it goes on the wire: trimmed; dates as UTC with milliseconds. */
function wireValue(param: OperationParam, value: string): string {
  if (param.format === 'date-time') {
    const ms = parseIsoDateTime(value);
    if (ms !== undefined) return new Date(ms).toISOString();
  }
  return value;
}

/** The outcome of checking a lookup's parameters. */
export interface ParamCheck {
  /** Wire values of the parameters given, by name (optional empty ones left out). */
  readonly values: Record<string, string>;
  /** Problems by parameter name; empty when the lookup may be sent. */
  readonly errors: Record<string, string>;
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * Checks `params` against `operation`: every required parameter present, every value in its
 * format, a date range in order and not too long, and no parameter the operation does not have.
 */
export function checkLookupParams(
  operation: DataSubjectOperation,
  params: Readonly<Record<string, unknown>>,
): ParamCheck {
  const values: Record<string, string> = {};
  const errors: Record<string, string> = {};
  for (const name of Object.keys(params)) {
    if (!operation.params.some((param) => param.name === name)) {
      errors[name] = 'is not a parameter of this operation';
    }
  }
  for (const param of operation.params) {
    const given = params[param.name];
    const text = given === undefined || given === null ? '' : asText(given);
    if (text === undefined) {
      errors[param.name] = 'must be text';
      continue;
    }
    const problem = paramValueProblem(param, text);
    if (problem) errors[param.name] = problem;
    else if (text !== '') values[param.name] = wireValue(param, text);
  }
  const range = operation.dateRange;
  if (range && !errors[range.from] && !errors[range.to]) {
    const from = values[range.from];
    const to = values[range.to];
    if (from !== undefined && to !== undefined) {
      const span = Date.parse(to) - Date.parse(from);
      const fromLabel = operation.params.find((param) => param.name === range.from)?.label;
      if (span < 0) errors[range.to] = `must not be before ${fromLabel ?? range.from}`;
      else if (span > range.maxDays * DAY_MS) {
        errors[range.to] = `must be at most ${range.maxDays} days after ${fromLabel ?? range.from}`;
      }
    }
  }
  return { values, errors };
}
