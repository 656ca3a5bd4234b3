// Words and times of the data-subjects and migration views, fixed to English like the rest of the UI.
// The console's one date format (lib/format.ts); dates alone keep table columns narrow.
export { formatDate, formatDateTime } from '../../lib/format';

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
