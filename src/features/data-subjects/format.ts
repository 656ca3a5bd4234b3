// Words and times of the data-subjects and migration views, fixed to English like the rest of the UI.

const DATE_TIME = new Intl.DateTimeFormat('en', {
  dateStyle: 'medium',
  timeStyle: 'short',
  hourCycle: 'h23',
});

/** "Mar 12, 2026, 09:14" in the user's time zone. */
export function formatDateTime(iso: string): string {
  return DATE_TIME.format(new Date(iso));
}

const DATE = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });

/** "Mar 12, 2026" in the user's time zone: tables keep their columns narrow. */
export function formatDate(iso: string): string {
  return DATE.format(new Date(iso));
}

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
