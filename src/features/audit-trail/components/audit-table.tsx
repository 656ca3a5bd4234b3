// The audit trail as a table: when, in which platform connection, who, which operation, what it asked, how many records came
// back and what came of it. Identifiers are never shown; a record only says whether the lookup
// named one, and in a search whether it asked for the identifier or showed it.
import { useMemo } from 'react';
import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import { CardTableHead } from '../../../components/ui/card-table-head';
import type { AuditRecord } from '../../../shared/audit-trail';
import { Instant } from '../../../components/ui/instant';
import { MATCH_TEXT, operationTitle } from '../../../shared/audit-words';
import { matchedKeysText, OUTCOME_TEXT, paramsText } from '../format';
import { ConnectionName } from './connection-name';

/** `/problems/data-subject-not-found (upstream 404)` -> "data subject not found (upstream 404)". */
function detailText(detail: string): string {
  return detail.replace(/^\/problems\/([\w-]+)/, (_, slug: string) => slug.replace(/-/g, ' '));
}

const features = tableFeatures({ columnMeta: {} as { className: string; label: string } });
const columnHelper = createColumnHelper<typeof features, AuditRecord>();

const columns = columnHelper.columns([
  columnHelper.accessor('at', {
    header: 'Time',
    meta: { className: 'cell-time', label: 'Time' },
    cell: (info) => <Instant at={info.getValue()} />,
  }),
  columnHelper.accessor('connection', {
    header: 'Connection',
    meta: { className: 'cell-connection', label: 'Connection' },
    cell: (info) => <ConnectionName name={info.getValue()} />,
  }),
  columnHelper.accessor('user', {
    header: 'User',
    meta: { className: 'cell-user', label: 'User' },
    // A script's lookup: its owner, and the token it used.
    cell: (info) => {
      const token = info.row.original.token;
      return token === undefined ? (
        info.getValue()
      ) : (
        <>
          {info.getValue()}
          <span className="cell-sub muted">token “{token}”</span>
        </>
      );
    },
  }),
  columnHelper.accessor('operation', {
    header: 'Operation',
    meta: { className: 'cell-operation', label: 'Operation' },
    cell: (info) => (
      <>
        {operationTitle(info.getValue())}
        <code className="cell-sub muted">{info.getValue()}</code>
      </>
    ),
  }),
  columnHelper.accessor('outcome', {
    header: 'Outcome',
    meta: { className: 'cell-outcome', label: 'Outcome' },
    cell: (info) => {
      const outcome = OUTCOME_TEXT[info.getValue()];
      return (
        <span className="status-badge" data-tone={outcome.tone}>
          {outcome.label}
        </span>
      );
    },
  }),
  columnHelper.accessor('detail', {
    header: 'Details',
    meta: { className: 'cell-detail', label: 'Details' },
    cell: (info) => {
      const record = info.row.original;
      const notes = [
        record.completed === false ? 'no outcome recorded yet' : `HTTP ${record.status}`,
        record.identifierHashed ? 'identifier hashed' : 'no identifier asked',
        ...(record.recordCount === null || record.recordCount === undefined
          ? []
          : [`${record.recordCount} ${record.recordCount === 1 ? 'record' : 'records'}`]),
        ...(record.subjectCount
          ? [
              `showed ${record.subjectCount} ${record.subjectCount === 1 ? 'data subject' : 'data subjects'}`,
            ]
          : []),
        ...(record.continued ? ['load-more page'] : []),
      ];
      const detail = info.getValue();
      const params = paramsText(record.params);
      const matched = matchedKeysText(record);
      return (
        <>
          {record.matchedBy ? (
            <span className="status-badge audit-match" data-tone="none">
              {MATCH_TEXT[record.matchedBy]}
            </span>
          ) : null}
          {matched ? <span className="cell-sub audit-matched-keys">Matched {matched}</span> : null}
          <span>{notes.join(' · ')}</span>
          {record.purpose === undefined ? null : (
            <span className="cell-sub audit-purpose">
              {record.purpose
                ? `Purpose: ${record.purpose.reference} · ${record.purpose.category}`
                : 'No purpose recorded'}
            </span>
          )}
          {params ? <span className="cell-sub muted audit-params">{params}</span> : null}
          {detail ? (
            <span className="cell-sub muted audit-detail" title={detail}>
              {detailText(detail)}
            </span>
          ) : null}
        </>
      );
    },
  }),
]);

/** A table with the accessible name `label`. */
export function AuditTable({ records, label }: { records: readonly AuditRecord[]; label: string }) {
  const data = useMemo(() => records as AuditRecord[], [records]);
  const table = useTable({ features, columns, data, getRowId: (row) => row.id });
  return (
    <div
      className="audit-scroll table-scroll"
      role="region"
      aria-label={`${label}, scrollable`}
      tabIndex={0}
    >
      {/* Explicit roles: on narrow screens CSS lays rows out as cards. */}
      <table className="audit-table data-table" aria-label={label} role="table">
        <CardTableHead table={table} />
        <tbody role="rowgroup">
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} role="row" data-outcome={row.original.outcome}>
              {row.getAllCells().map((cell) => (
                <td
                  key={cell.id}
                  role="cell"
                  className={cell.column.columnDef.meta?.className}
                  data-label={cell.column.columnDef.meta?.label}
                >
                  <div className="cell-content">
                    <table.FlexRender cell={cell} />
                  </div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
