// The report's tables: who looked people up, under which purposes, and the administrative
// changes. Small plain tables in a scrollable region, so a narrow screen scrolls rather than
// squeezes them.
import type { ReactNode } from 'react';
import { Instant } from '../../../components/ui/instant';
import { formatCount } from '../../../lib/format';
import type { AccountabilityReport } from '../../../shared/accountability';

interface FactTableProps {
  readonly label: string;
  readonly header: readonly string[];
  /** Which columns hold numbers (right-aligned). */
  readonly numeric: readonly number[];
  readonly rows: ReadonlyArray<{ key: string; cells: readonly ReactNode[] }>;
}

function FactTable({ label, header, numeric, rows }: FactTableProps) {
  return (
    <div className="table-scroll" role="region" aria-label={`${label}, scrollable`} tabIndex={0}>
      <table className="data-table accountability-table" aria-label={label}>
        <thead>
          <tr>
            {header.map((title, index) => (
              <th key={title} scope="col" className={numeric.includes(index) ? 'num' : undefined}>
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, index) => (
                <td key={header[index]} className={numeric.includes(index) ? 'num' : undefined}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const tokenText = (token: string | null) => (token === null ? 'signed in' : `token “${token}”`);

/** Per person or token: lookups and distinct people. */
export function ActorsTable({ report }: { report: AccountabilityReport }) {
  if (report.actors.length === 0) return <p className="muted">No one looked anyone up.</p>;
  return (
    <FactTable
      label="Lookups by person or token"
      header={['Person', 'How', 'Lookups', 'People']}
      numeric={[2, 3]}
      rows={report.actors.map((actor) => ({
        key: `${actor.user}\u0000${actor.token ?? ''}`,
        cells: [
          actor.user,
          tokenText(actor.token),
          formatCount(actor.lookups),
          formatCount(actor.people),
        ],
      }))}
    />
  );
}

/** Per purpose category, then the lookups with none. */
export function PurposesTable({ report }: { report: AccountabilityReport }) {
  return (
    <FactTable
      label="Lookups by purpose"
      header={['Purpose', 'Lookups', 'References', 'People']}
      numeric={[1, 2, 3]}
      rows={[
        ...report.purposes.map((purpose) => ({
          key: purpose.category,
          cells: [
            purpose.category,
            formatCount(purpose.lookups),
            formatCount(purpose.references),
            formatCount(purpose.people),
          ],
        })),
        {
          key: '\u0000none',
          cells: [
            <em key="none">No purpose recorded</em>,
            formatCount(report.withoutPurpose.lookups),
            '—',
            formatCount(report.withoutPurpose.people),
          ],
        },
      ]}
    />
  );
}

/** The period's administrative changes, newest first. */
export function ChangesTable({ report }: { report: AccountabilityReport }) {
  const { items, total } = report.changes;
  if (total === 0) return <p className="muted">No administrative change was made.</p>;
  return (
    <>
      <FactTable
        label="Administrative changes"
        header={['When', 'Who', 'From', 'What', 'Target']}
        numeric={[]}
        rows={items.map((change, index) => ({
          key: `${change.at}\u0000${index}`,
          cells: [
            <Instant key="at" at={change.at} />,
            change.token === null ? change.user : `${change.user} (token “${change.token}”)`,
            change.address,
            <code key="action">{change.action}</code>,
            change.target ?? '—',
          ],
        }))}
      />
      {total > items.length ? (
        <p className="muted">
          The newest {formatCount(items.length)} of {formatCount(total)} are shown; the export holds
          them all.
        </p>
      ) : null}
    </>
  );
}
