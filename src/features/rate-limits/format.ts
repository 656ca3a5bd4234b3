// Words and numbers of the rate-limit panel, fixed to English like the rest of the UI text.
import { INCIDENT_FLAGS, type Incident, type Rule } from '../../shared/incident';
import { describeLimits } from '../../shared/rate-limits';
import { formatCountdown } from '../../components/ui/format-countdown';

const COUNT = new Intl.NumberFormat('en');
const TIME = new Intl.DateTimeFormat('en', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const CLOCK = new Intl.DateTimeFormat('en', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const DATE_TIME = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });

/** "20,000". */
export function formatCount(count: number): string {
  return COUNT.format(count);
}

/** "09:01:05" in the user's time zone. */
export function formatTime(iso: string | number): string {
  return TIME.format(new Date(iso));
}

/** "09:01", for chart axes. */
export function formatClock(iso: string | number): string {
  return CLOCK.format(new Date(iso));
}

/** "Jan 6, 2025, 09:01:05", for tooltips and the support text. */
export function formatDateTime(iso: string | number): string {
  return DATE_TIME.format(new Date(iso));
}

/** The console's one countdown format ("59:24"); see components/ui/format-countdown.ts. */
export const formatDuration = formatCountdown;

/** "Account · Default minute" or "Consent API quota · GET /v3/datasubjects". */
export function ruleTitle(rule: Rule): string {
  if (rule.scope === 'account') return `${rule.area} · ${rule.name}`;
  const method = rule.method === '*' ? 'any method' : rule.method;
  return `${rule.area} · ${method} ${rule.path}`;
}

/** The rule an incident matched, in words. */
export function incidentRuleText(incident: Incident, rules: readonly Rule[] | undefined): string {
  if (incident.ruleId === null) {
    // Never another operation's limit: the figures the platform sent, as they came.
    const figures =
      incident.requestsAllowed !== null && incident.period !== null
        ? `${formatCount(incident.requestsAllowed)} per ${incident.period.toLowerCase()}`
        : incident.period !== null
          ? `per ${incident.period.toLowerCase()}`
          : 'no usable figures';
    return `Unknown rule (${figures}, as the platform stated)`;
  }
  const rule = rules?.find((candidate) => candidate.id === incident.ruleId);
  return rule ? `${ruleTitle(rule)} (${describeLimits(rule)})` : incident.ruleId;
}

/** What a flag means, for people. */
export function flagText(flag: string): string {
  return flag in INCIDENT_FLAGS ? INCIDENT_FLAGS[flag as keyof typeof INCIDENT_FLAGS] : flag;
}

/** "HOUR" → "hour". */
export function periodText(period: string | null): string {
  return period === null ? 'unknown period' : period.toLowerCase();
}
