// Words and times of the data-subjects and migration views, fixed to English like the rest of the UI.
import { timeFormatter } from '../../lib/format';

/** "Mar 12, 2026, 09:14" in the user's time zone. */
export const formatDateTime = timeFormatter({
  dateStyle: 'medium',
  timeStyle: 'short',
  hourCycle: 'h23',
});

/** "Mar 12, 2026" in the user's time zone: tables keep their columns narrow. */
export const formatDate = timeFormatter({ dateStyle: 'medium' });

/** How a purpose status reads at a glance. */
export function statusTone(status: string): 'good' | 'bad' | 'wait' | 'none' {
  switch (status.toUpperCase()) {
    case 'ACTIVE':
    case 'CONFIRMED':
      return 'good';
    case 'WITHDRAWN':
    case 'OPT_OUT':
    case 'OPTED_OUT':
      return 'bad';
    case 'PENDING':
      return 'wait';
    default:
      return 'none';
  }
}

/** "YYYY-MM-DD" of `ms` in UTC, for date inputs. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
