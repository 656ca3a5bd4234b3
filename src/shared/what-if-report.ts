// The what-if's words, written once for the page and both files: how a replay counts, a policy
// stated number by number, what the baseline leaves out of the period's recorded 429s, and the
// CSV and Markdown exports. The page builds the files from the result it shows, so a file is that
// run (its id and time stamped in it), never a new replay over a later window.
import { csvCell } from './csv-formula';
import { endpointName } from './endpoint-name';
import { counted } from './counted';
import {
  PLANNING_PERIODS,
  type PolicySummary,
  type ReplayOutcome,
  type WhatIfResult,
} from './planning';

const CRLF = '\r\n';

/** Rows as RFC 4180 CSV, each cell guarded against formula injection. */
export const csvRows = (rows: ReadonlyArray<ReadonlyArray<string | number | null>>) =>
  rows.map((row) => row.map(csvCell).join(',')).join(CRLF) + CRLF;

const n = (value: number) => value.toLocaleString('en-US');

/** A Markdown table cell: no pipes or line breaks can break the table. */
export const markdownCell = (text: string) => text.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');

/** How a replay counts (docs/planning.md), beside the figures and in the Markdown report. */
export const HOW_COUNTED: readonly string[] = [
  'Requests count in the minute they were recorded in, taken as spread evenly within it: the records go no finer. A minute limit is that minute; an hour limit the 60 minutes ending with it.',
  'A refused request is not retried and counts in no window: the platform does not count what it refuses, and the replay does not guess when a client would have tried again.',
  'A hard breach refuses the excess of its minute, then everything its block covers for the block’s published length (the whole account for an account block, the rule’s requests for a rule block); a limit published without a block length blocks for the rest of its period, as the console itself assumes.',
  'Narrower limits refuse first (a rule’s block, a per-endpoint limit, a module rule), then the account limits refuse what is left above them.',
  '“Slowed” counts the minutes over a soft limit: the platform slows those requests down and refuses none of them.',
  'Only traffic the console and the reporting integrations recorded is replayed: other clients of the account are not seen.',
];

/** A policy's limits, one line each: "Account minute limit: 15,000 a minute (hard, blocks the account 60 s)". */
export function policyStatement(policy: PolicySummary): string[] {
  if (policy.limits.length === 0) return ['No limit at all: nothing would be refused.'];
  return policy.limits.map((limit) => {
    const effect =
      limit.kind === 'soft'
        ? 'soft: slows, refuses nothing'
        : `hard, blocks ${limit.blocks === 'account' ? 'the account' : 'its requests'}${limit.blockSeconds > 0 ? ` ${counted(limit.blockSeconds, 'second')}` : ' for the rest of its period'}`;
    return `${limit.name}: ${n(limit.limit)} ${limit.period === 'MINUTE' ? 'a minute' : 'an hour'} (${effect})`;
  });
}

/**
 * What the policy-in-force replay leaves out of the 429s the platform really answered in the
 * period, and why: a baseline with fewer refusals than the record is not "nothing happened".
 */
export function baselineNote(result: Pick<WhatIfResult, 'recorded429s' | 'inForce'>): string {
  const { total, byEndpoint } = result.recorded429s;
  if (total === 0) {
    return 'The platform answered no 429 in this period, as the console and the reporting integrations recorded it.';
  }
  const where = byEndpoint
    .slice(0, 3)
    // Named as every page names an operation (the path when it is none the console knows).
    .map((row) => `${endpointName(row.endpoint) ?? row.endpoint} ×${n(row.throttled)}`)
    .join(', ');
  const recorded = `The platform answered ${counted(total, '429')} in this period (${where}${byEndpoint.length > 3 ? ', …' : ''})`;
  const refused = result.inForce.refused;
  const leftOut =
    'The replay sees only the requests the console and the reporting integrations recorded; a block the platform imposed for traffic it never saw (clients that do not report, or the platform’s own count), or for a limit the published policy does not have, is not in it. Those incidents are on the rate-limits page.';
  return refused === 0
    ? `${recorded}; the replay under the policy in force refuses none of the recorded requests. ${leftOut}`
    : `${recorded}; the replay under the policy in force refuses ${counted(refused, 'request')}, which reproduces what the recorded traffic alone would draw. ${leftOut}`;
}

/** The run's stamp, in both files. */
function stamp(result: WhatIfResult): string {
  return `Run ${result.runId}, generated at ${result.generatedAt}; traffic from ${result.from} to ${result.to}.`;
}

/** The what-if as CSV: the run, both policies' limits, every breach, then refusals per source. */
export function whatIfCsv(result: WhatIfResult): string {
  const outcomes = [
    ['in force', result.inForce],
    ['chosen', result.chosen],
  ] as const;
  const rows: Array<Array<string | number | null>> = [
    ['run_id', 'generated_at', 'from', 'to', 'recorded_429s', 'connection'],
    [
      result.runId,
      result.generatedAt,
      result.from,
      result.to,
      result.recorded429s.total,
      result.connection.name,
    ],
    [],
    ['policy', 'limit', 'period', 'limit_requests', 'kind', 'blocks', 'block_seconds'],
  ];
  for (const [which, outcome] of outcomes) {
    for (const limit of outcome.policy.limits) {
      rows.push([
        `${which}: ${outcome.policy.label}`,
        limit.name,
        limit.period,
        limit.limit,
        limit.kind,
        limit.blocks,
        limit.blockSeconds,
      ]);
    }
  }
  rows.push([]);
  rows.push([
    'policy',
    'minute',
    'limit',
    'endpoint',
    'period',
    'limit_requests',
    'requests',
    'refused',
    'kind',
  ]);
  for (const [which, outcome] of outcomes) {
    for (const breach of outcome.breaches) {
      rows.push([
        `${which}: ${outcome.policy.label}`,
        breach.minute,
        breach.name,
        breach.endpoint,
        breach.period,
        breach.limit,
        breach.requests,
        breach.refused,
        breach.kind,
      ]);
    }
  }
  rows.push([]);
  rows.push(['policy', 'source', 'requests_in_refused_minutes', 'refused']);
  for (const [which, outcome] of outcomes) {
    for (const source of outcome.bySource) {
      rows.push([
        `${which}: ${outcome.policy.label}`,
        source.name,
        source.requests,
        source.refused,
      ]);
    }
  }
  return csvRows(rows);
}

function outcomeLines(title: string, outcome: ReplayOutcome): string[] {
  const first = outcome.firstBreach;
  const lines = [
    `## ${title}: ${outcome.policy.label}`,
    '',
    'Limits:',
    '',
    ...policyStatement(outcome.policy).map((line) => `- ${line}`),
    '',
    `- Requests refused: **${n(outcome.refused)}**${outcome.refusedWhileBlocked > 0 ? ` (${n(outcome.refusedWhileBlocked)} of them while a block ran)` : ''}`,
    `- Minutes over a limit: ${n(outcome.minutesOver)}; minutes slowed by a soft limit: ${n(outcome.minutesSlowed)}`,
    `- First breach: ${first ? `${first.minute}, ${first.name}${first.endpoint ? ` (${first.endpoint})` : ''}: ${n(first.requests)} against ${n(first.limit)}` : 'none'}`,
  ];
  if (outcome.headroom) {
    const { headroom } = outcome;
    lines.push(
      `- At the busiest minute, the tightest limit: ${headroom.name}${headroom.endpoint ? ` (${headroom.endpoint})` : ''}, ${n(headroom.used)} of ${n(headroom.limit)} (${headroom.left >= 0 ? `${n(headroom.left)} left` : `${n(-headroom.left)} over`})`,
    );
  }
  if (outcome.bySource.length > 0) {
    lines.push('', '| Who would have drawn the refusals | Refused |', '|---|---:|');
    for (const source of outcome.bySource)
      lines.push(`| ${markdownCell(source.name)} | ${n(source.refused)} |`);
  }
  lines.push('');
  return lines;
}

/** The what-if as a short Markdown report. */
export function whatIfMarkdown(result: WhatIfResult): string {
  return [
    `# What if: ${result.chosen.policy.label}`,
    '',
    `The recorded traffic of ${markdownCell(result.connection.label)} (\`${result.connection.name}\`).`,
    '',
    stamp(result),
    '',
    `${PLANNING_PERIODS[result.period].label} (${result.from} to ${result.to}): ${n(result.requests)} requests recorded in ${n(result.activeMinutes)} minutes, the console's and every reporting integration's, replayed a minute at a time. Busiest minute: ${result.busiestMinute.minute} with ${n(result.busiestMinute.requests)} requests.`,
    '',
    ...outcomeLines('Under the policy in force', result.inForce),
    baselineNote(result),
    '',
    ...outcomeLines('Under the policy chosen', result.chosen),
    ...setAsideLines(result.setAside, 'not replayed'),
    '## How this is counted',
    '',
    ...HOW_COUNTED.map((line) => `- ${line}`),
    '',
    `Generated by the Privacy API Console at ${result.generatedAt}.`,
    '',
  ].join('\n');
}

/** The sentence on minutes set aside as implausible, when any was (docs/account-wide-view.md). */
export function setAsideLines(entries: WhatIfResult['setAside'], outcome: string): string[] {
  if (entries.length === 0) return [];
  return [
    `${counted(entries.length, 'reported minute')} set aside as implausible (one integration reported as many requests as the account can send in a minute, or more) and ${outcome}.`,
    '',
  ];
}
