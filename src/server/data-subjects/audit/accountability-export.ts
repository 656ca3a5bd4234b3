// The accountability report as a signed file: JSON for programs, Markdown for a regulator's
// reader. The file holds the report's figures and every administrative change of the period
// (with before and after); it is small, so it is built whole, hashed and signed like an audit
// export (export-signing.ts), and its detached signature is fetched the same way.
import { createHash } from 'node:crypto';
import type {
  AccountabilityExportFormat,
  AccountabilityReport,
} from '../../../shared/accountability';
import type { AuditExportSignature } from '../../../shared/audit-trail';
import type { StoredChange } from './admin-change-entry';
import { changeSummary } from './accountability-report';
import type { ExportSigner } from './export-signing';

/** A change as the export holds it: the summary, and its states before and after. */
function exportedChange(change: StoredChange) {
  const state = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
  return { ...changeSummary(change), before: state(change.before), after: state(change.after) };
}

/**
 * A table cell's text: one line, and nothing Markdown would read as markup (a `|` would split
 * the cell, a `<` could open HTML in a renderer), since targets and names are typed by people.
 */
function cell(value: string | number | null): string {
  if (value === null) return '—';
  return (
    String(value)
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .replace(/[\\`*_{}[\]()#+!|<>~]/g, (character) => `\\${character}`)
  );
}

function table(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number | null>>,
) {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => ' --- ').join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

/** The report in Markdown: the figures, then every change of the period. */
export function accountabilityMarkdown(
  report: AccountabilityReport,
  changes: readonly StoredChange[],
): string {
  const { period, lookups, withoutPurpose } = report;
  const lines = [
    '# Accountability report',
    '',
    `Period: from ${period.since} (included) to ${period.until} (excluded), UTC. Generated ${report.generatedAt}.`,
    '',
    'People are counted by the keyed hash of the identifier asked for; the report holds no identifier.',
    '',
    '## Lookups',
    '',
    `- ${lookups.total} lookups of ${lookups.people} distinct people.`,
    `- ${lookups.withoutPerson} lookups asked for no one in particular (lists by date).`,
    `- ${withoutPurpose.lookups} lookups (of ${withoutPurpose.people} people) had no purpose recorded: made before purposes were kept, or while stating one was optional.`,
    '',
    '## By whom',
    '',
    table(
      ['Person', 'Token', 'Lookups', 'People'],
      report.actors.map((actor) => [actor.user, actor.token, actor.lookups, actor.people]),
    ),
    '',
    '## Under which purposes',
    '',
    table(
      ['Category', 'Lookups', 'References', 'People'],
      [
        ...report.purposes.map((purpose) => [
          purpose.category,
          purpose.lookups,
          purpose.references,
          purpose.people,
        ]),
        ['no purpose recorded', withoutPurpose.lookups, null, withoutPurpose.people],
      ],
    ),
    '',
    `## Administrative changes (${report.changes.total})`,
    '',
    table(
      ['When', 'Who', 'Token', 'From', 'What', 'Target'],
      changes.map((change) => [
        change.at,
        change.username,
        change.tokenName,
        change.address,
        change.action,
        change.target,
      ]),
    ),
    '',
    '## Evidence',
    '',
    report.evidence.summary,
    '',
  ];
  return lines.join('\n');
}

/** The report as JSON: every change of the period in place of the page's newest ones. */
export function accountabilityJson(
  report: AccountabilityReport,
  changes: readonly StoredChange[],
): string {
  return `${JSON.stringify(
    { ...report, changes: { ...report.changes, items: changes.map(exportedChange) } },
    null,
    2,
  )}\n`;
}

/** The file's bytes and its detached signature. */
export function signedAccountabilityFile(options: {
  readonly id: string;
  readonly format: AccountabilityExportFormat;
  readonly report: AccountabilityReport;
  readonly changes: readonly StoredChange[];
  readonly signer: ExportSigner;
}): { bytes: Buffer; scope: string; signature: AuditExportSignature } {
  const { report, changes } = options;
  const text =
    options.format === 'md'
      ? accountabilityMarkdown(report, changes)
      : accountabilityJson(report, changes);
  const bytes = Buffer.from(text, 'utf8');
  const scope = `accountability report from ${report.period.since} to ${report.period.until}`;
  const signature = options.signer.sign({
    exportId: options.id,
    createdAt: report.generatedAt,
    format: options.format,
    scope,
    // The entries it holds one by one: the changes (lookups appear as counts only).
    records: changes.length,
    bytes: bytes.byteLength,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  });
  return { bytes, scope, signature };
}
