// The text "Copy for support" puts on the clipboard: everything the vendor's support needs to find
// the occurrence (its ot-ratelimit-event-id), the headers exactly as received, the rule, the
// console's request rate around it, and the account-wide context the page shows (every reporting
// client's use of each limit, the blocks running), in plain text that survives any ticket system.
import type { ConsoleMeta } from '../../shared/console-meta';
import type { Incident, Rule, Timeline } from '../../shared/incident';
import { utcText } from '../../shared/utc-text';
import { formatDateTime } from '../../lib/format';
import { accountContextLines, type AccountContext } from './account-context-text';
import { flagText, formatTime, incidentRuleText } from './format';

/** What the console knows about its connection, for the support desk's first questions. */
export type SupportContext = Pick<ConsoleMeta, 'serviceHost' | 'oauthClientId' | 'operations'>;

/** "2025-01-06 09:01:05 UTC (local: 2025-01-06 10:01:05 GMT+1)": both, with their zones. */
function supportTime(iso: string): string {
  return `${utcText(iso)} (local: ${formatDateTime(iso)})`;
}

/** Minutes of the timeline included before the incident began. */
const MINUTES_BEFORE = 5;

/** Requests per minute around the incident, from the usage timeline (10-second buckets). */
function timelineAround(incident: Incident, timeline: Timeline | undefined): string[] {
  if (!timeline) return ['(not available)'];
  const bucketMs = timeline.bucketSeconds * 1_000;
  const start = Date.parse(timeline.start);
  const from = Date.parse(incident.firstSeen) - MINUTES_BEFORE * 60_000;
  const to = Math.max(Date.parse(incident.lastSeen), from) + 60_000;
  const lines: string[] = [];
  for (let minute = Math.floor(from / 60_000) * 60_000; minute < to; minute += 60_000) {
    let sent = 0;
    let refused = 0;
    let throttled = 0;
    for (let at = minute; at < minute + 60_000; at += bucketMs) {
      const index = Math.floor((at - start) / bucketMs);
      if (index < 0 || index >= timeline.sent.length) continue;
      sent += timeline.sent[index] ?? 0;
      refused += timeline.refused[index] ?? 0;
      throttled += timeline.throttled[index] ?? 0;
    }
    lines.push(
      `  ${formatTime(minute)}  sent ${sent}, held back by the console ${refused}, upstream 429s ${throttled}`,
    );
  }
  return lines.length > 0 ? lines : ['(no requests recorded in that period)'];
}

/** The support text for one incident. */
export function supportText(
  incident: Incident,
  rules: readonly Rule[] | undefined,
  timeline: Timeline | undefined,
  context: SupportContext = {},
  account: AccountContext = {},
): string {
  // The platform's method and path, not the console's internal operation name.
  const request = context.operations?.[incident.operation] ?? '(not known to this console)';
  const headerLines = Object.entries(incident.headers).map(
    ([name, value]) => `  ${name}: ${value}`,
  );
  return [
    'Rate-limit incident reported by the Privacy API Console',
    `ot-ratelimit-event-id: ${incident.eventId ?? `(none received; console key ${incident.key})`}`,
    `Service host: ${context.serviceHost ?? '(unknown)'}`,
    `OAuth client id: ${context.oauthClientId ?? '(unknown)'}`,
    `Request: ${request}`,
    `Rule: ${incidentRuleText(incident, rules)}`,
    `Period: ${incident.period ?? '(unknown)'}; requests allowed ${incident.requestsAllowed ?? '(unknown)'}; requests made ${incident.requestsMade ?? '(unknown)'}`,
    `First 429: ${supportTime(incident.firstSeen)}`,
    `Last 429: ${supportTime(incident.lastSeen)}`,
    `429s received: ${incident.hits}`,
    `Retry-After: ${incident.retryAfterSeconds === null ? '(none usable)' : `${incident.retryAfterSeconds} seconds`}; blocked until ${supportTime(incident.blockedUntil)}`,
    'Rate-limit headers as received on the latest 429:',
    ...(headerLines.length > 0 ? headerLines : ['  (none)']),
    ...(incident.flags.length > 0
      ? ['Notes:', ...incident.flags.map((flag) => `  - ${flagText(flag)}`)]
      : []),
    'Console requests per minute around the incident:',
    ...timelineAround(incident, timeline),
    ...accountContextLines(account),
  ].join('\n');
}
