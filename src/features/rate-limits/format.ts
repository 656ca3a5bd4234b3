// Words and numbers of the rate-limit panel, fixed to English like the rest of the UI text.
import { INCIDENT_FLAGS, type Incident, type Rule } from '../../shared/incident';
import { describeLimits } from '../../shared/rate-limits';
import { formatCountdown } from '../../components/ui/format-countdown';
import { formatCount, timeFormatter } from '../../lib/format';

/** "09:01:05" in the user's time zone. */
export const formatTime = timeFormatter({
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** "Jan 6, 2025, 9:01:05 AM", for tooltips and the support text. */
export const formatDateTime = timeFormatter({ dateStyle: 'medium', timeStyle: 'medium' });

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
