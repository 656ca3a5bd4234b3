// Plain-language wording of the alerts page: durations, forecast levels and delivery states.
import type { DeliveryStatus, ForecastLevel, LimitForecast } from '../../shared/alerts';
import { limitName as sharedLimitName } from '../../shared/rate-limits';
import { formatCount } from '../../lib/format';

/** "45 s", "12 min", "1 h 5 min". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

export const LEVEL_LABELS: Record<ForecastLevel, string> = {
  ok: 'OK',
  near: 'Past threshold',
  forecast: 'Runs out at this rate',
  exhausted: 'Exhausted',
  blocked: 'Blocked',
};

export const STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Queued',
  delivering: 'Sending',
  retrying: 'Retrying',
  delivered: 'Delivered',
  dead: 'Dead-lettered',
};

/** The limit's one name (shared/rate-limits.ts): "Account minute limit". */
export function limitName(forecast: Pick<LimitForecast, 'ruleId' | 'period'>): string {
  return sharedLimitName(forecast.ruleId, forecast.period);
}

/** One sentence for a limit that warns, or null for one that does not. */
export function warningText(forecast: LimitForecast): string | null {
  const name = limitName(forecast);
  // The account's block has a banner of its own above every page; a rule's block is said here.
  if (forecast.block) return forecast.block.scope === 'rule' ? forecast.block.reason : null;
  if (forecast.level === 'exhausted') {
    const figures = `${formatCount(forecast.used)} of ${formatCount(forecast.limit)}`;
    // Reported use counts integrations too: the console held nothing back; the platform decides.
    return forecast.source === 'account'
      ? `${name}: reported use is over the limit (${figures}, this console and the reporting integrations together); the platform may refuse calls.`
      : `${name}: this console has used all of it (${figures}); it holds further calls back until the window frees up.`;
  }
  if (forecast.level === 'forecast' && forecast.secondsToExhaustion !== null) {
    return `${name} runs out in about ${formatDuration(forecast.secondsToExhaustion)} at the current rate (${formatCount(forecast.ratePerMinute)} a minute).`;
  }
  if (forecast.level === 'near' || forecast.percentUsed >= forecast.thresholdPercent) {
    return `${name} is at ${forecast.percentUsed}% of its limit, past the ${forecast.thresholdPercent}% warning.`;
  }
  return null;
}
