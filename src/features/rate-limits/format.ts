// Words and numbers of the rate-limit panel, fixed to English like the rest of the UI text.
import { INCIDENT_FLAGS, type Incident, type Rule } from '../../shared/incident';
import { incidentLimitName } from '../../shared/limit-state';
import { describeLimits, limitName } from '../../shared/rate-limits';
import { formatCountdown } from '../../components/ui/format-countdown';

// The console's one time format (lib/format.ts): "09:01:05 GMT+1" for today's times.
export { formatTime } from '../../lib/format';

/** The console's one countdown format ("59:24"); see components/ui/format-countdown.ts. */
export const formatDuration = formatCountdown;

/** The rule's one name (shared/rate-limits.ts): "Account minute limit", "v2 data-subjects quota". */
export function ruleTitle(rule: Pick<Rule, 'id'>): string {
  return limitName(rule.id);
}

/** What a module rule counts: "GET /api/consentmanager/v2/datasubjects". */
export function ruleRequests(rule: Rule): string | null {
  if (rule.path === null) return null;
  return `${rule.method === '*' ? 'any method' : rule.method} ${rule.path}`;
}

/** The rule an incident matched, in words: its one name (shared/limit-state.ts) and figures. */
export function incidentRuleText(incident: Incident, rules: readonly Rule[] | undefined): string {
  const name = incidentLimitName(incident);
  const rule = rules?.find((candidate) => candidate.id === incident.ruleId);
  return rule ? `${name} (${describeLimits(rule)})` : name;
}

/** What a flag means, for people. */
export function flagText(flag: string): string {
  return flag in INCIDENT_FLAGS ? INCIDENT_FLAGS[flag as keyof typeof INCIDENT_FLAGS] : flag;
}

/** "HOUR" → "hour". */
export function periodText(period: string | null): string {
  return period === null ? 'unknown period' : period.toLowerCase();
}
