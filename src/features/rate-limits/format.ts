// Words and numbers of the rate-limit panel, fixed to English like the rest of the UI text.
import { INCIDENT_FLAGS, type Incident, type Rule } from '../../shared/incident';
import { describeLimits } from '../../shared/rate-limits';

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

/** "0:42", "12:00", "1:00:00": a countdown that reads at a glance. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const hours = Math.floor(s / 3_600);
  const minutes = Math.floor((s % 3_600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** "Account · Default minute" or "Consent API quota · GET /v3/datasubjects". */
export function ruleTitle(rule: Rule): string {
  if (rule.scope === 'account') return `${rule.area} · ${rule.name}`;
  const method = rule.method === '*' ? 'any method' : rule.method;
  return `${rule.area} · ${method} ${rule.path}`;
}

/** The rule an incident matched, in words. */
export function incidentRuleText(incident: Incident, rules: readonly Rule[] | undefined): string {
  if (incident.ruleId === null) return 'No documented limit matches';
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
