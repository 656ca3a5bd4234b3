// The form's values as a lookup's parameters: only the chosen operation's, trimmed, and the end
// of a date range stretched to the last millisecond of its day, so "to 31 Jan" includes 31 Jan.
import type { DataSubjectOperation } from '../../shared/data-subject-operations';
import { utcDay } from './format';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** The parameters to send for `operation` from the form's `values` (by parameter name). */
export function lookupParams(
  operation: DataSubjectOperation,
  values: Readonly<Record<string, string>>,
): Record<string, string> {
  const params: Record<string, string> = {};
  for (const param of operation.params) {
    const value = values[param.name]?.trim() ?? '';
    if (value === '') continue;
    params[param.name] =
      param.name === operation.dateRange?.to && DATE_ONLY.test(value)
        ? `${value}T23:59:59.999Z`
        : value;
  }
  return params;
}

/** The date ranges' defaults: the last 365 days up to today (UTC). */
export function defaultRangeValues(
  operations: readonly DataSubjectOperation[],
  now: number,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const operation of operations) {
    if (!operation.dateRange) continue;
    values[operation.dateRange.from] = utcDay(now - 365 * DAY_MS);
    values[operation.dateRange.to] = utcDay(now);
  }
  return values;
}

/** What the records of a listing are called. */
export function listTitleOf(operation: DataSubjectOperation): string {
  switch (operation.answer) {
    case 'profile-page':
      return 'Profiles';
    case 'purpose-page':
      return 'Purposes';
    case 'link-token-page':
      return 'Link tokens';
    case 'group-page':
      return 'Linked identity groups';
    default:
      return 'Records';
  }
}
