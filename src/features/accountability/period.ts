// The report's period as the page chooses it and keeps it in the URL: the last 30 days (the
// server's default), this month, last month, or custom days. Months and days are UTC: the trail's
// times are UTC, and a report handed to a regulator must say the same whoever opens it, wherever.
import { DEFAULT_PERIOD_DAYS } from '../../shared/accountability';

export const PERIOD_PRESETS = ['last-30-days', 'this-month', 'last-month', 'custom'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** What each preset is called on the page. */
export const PRESET_TEXT: Readonly<Record<PeriodPreset, string>> = {
  'last-30-days': `Last ${DEFAULT_PERIOD_DAYS} days`,
  'this-month': 'This month',
  'last-month': 'Last month',
  custom: 'Custom',
};

/** The period chosen: a preset, or days `from` to `to` (both included, `YYYY-MM-DD`). */
export interface PeriodChoice {
  readonly preset: PeriodPreset;
  readonly from?: string;
  readonly to?: string;
}

/** The bounds the API takes (absent: its default, the last 30 days), or why there are none. */
export type PeriodBounds =
  | { readonly ok: true; readonly since?: string; readonly until?: string }
  | { readonly ok: false; readonly error: string };

const DAY_TEXT = /^\d{4}-\d{2}-\d{2}$/;
const DAY = 24 * 60 * 60 * 1000;

/** The choice a URL holds; anything unknown reads as the default. */
export function parsePeriodChoice(params: URLSearchParams): PeriodChoice {
  const preset = params.get('period');
  if (preset === 'custom') {
    return { preset, from: params.get('from') ?? '', to: params.get('to') ?? '' };
  }
  return {
    preset: PERIOD_PRESETS.includes(preset as PeriodPreset)
      ? (preset as PeriodPreset)
      : 'last-30-days',
  };
}

/** The URL's query for a choice; the default needs none. */
export function serialisePeriodChoice(choice: PeriodChoice): URLSearchParams {
  if (choice.preset === 'last-30-days') return new URLSearchParams();
  if (choice.preset !== 'custom') return new URLSearchParams({ period: choice.preset });
  return new URLSearchParams({ period: 'custom', from: choice.from ?? '', to: choice.to ?? '' });
}

/** Midnight UTC opening the month `offset` months from the one `now` is in. */
function monthStart(now: number, offset: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1);
}

/** Midnight UTC of a `YYYY-MM-DD` day, or NaN. */
function dayStart(day: string | undefined): number {
  return day !== undefined && DAY_TEXT.test(day) ? Date.parse(`${day}T00:00:00.000Z`) : NaN;
}

const iso = (time: number) => new Date(time).toISOString();

/** The API's bounds for a choice made at `now` (epoch ms). */
export function periodBounds(choice: PeriodChoice, now: number): PeriodBounds {
  switch (choice.preset) {
    case 'last-30-days':
      return { ok: true };
    case 'this-month':
      return { ok: true, since: iso(monthStart(now, 0)), until: iso(monthStart(now, 1)) };
    case 'last-month':
      return { ok: true, since: iso(monthStart(now, -1)), until: iso(monthStart(now, 0)) };
    case 'custom': {
      const from = dayStart(choice.from);
      const to = dayStart(choice.to);
      if (Number.isNaN(from) || Number.isNaN(to)) {
        return { ok: false, error: 'Choose the first and the last day of the period.' };
      }
      if (to < from) return { ok: false, error: 'The last day is before the first.' };
      // The last day is included: the period ends at the next midnight.
      return { ok: true, since: iso(from), until: iso(to + DAY) };
    }
  }
}
