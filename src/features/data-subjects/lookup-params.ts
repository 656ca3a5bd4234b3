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

/**
 * The form's starting values for `operation`: a date range ending today (UTC) and as long as the
 * platform allows (a 7-day range is today and the six days before).
 */
export function defaultValues(
  operation: DataSubjectOperation,
  now: number,
): Record<string, string> {
  const range = operation.dateRange;
  if (!range) return {};
  return {
    [range.from]: utcDay(now - (range.maxDays - 1) * DAY_MS),
    [range.to]: utcDay(now),
  };
}

/** What the records of a listing are called. */
export function listTitleOf(operation: DataSubjectOperation): string {
  switch (operation.answer) {
    case 'subject-page':
      return 'Data subjects';
    case 'purpose-page':
      return 'Purposes';
    case 'link-token-page':
      return 'Link tokens';
    case 'group-list':
      return 'Linked identity groups';
    case 'member-page':
      return 'Members';
    default:
      return 'Records';
  }
}
