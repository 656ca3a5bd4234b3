// A list of records from an upstream answer as a table whose columns are whatever fields the
// records have (TanStack Table), scrolling sideways on narrow screens instead of squashing.
import { useMemo } from 'react';
import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import type { RecordTable as RecordTableModel } from '../answer-model';
import { FieldValue } from './field-value';

type Row = Record<string, unknown>;

const features = tableFeatures({ columnMeta: {} as { className?: string } });
const columnHelper = createColumnHelper<typeof features, Row>();

/** A table with the accessible name of `table.title` (e.g. "Purposes"). */
export function RecordTable({ table, caption }: { table: RecordTableModel; caption?: string }) {
  const columns = useMemo(
    () =>
      columnHelper.columns(
        table.columns.map((column) =>
          columnHelper.accessor((row: Row) => row[column.key], {
            id: column.key,
            header: column.label,
            cell: (info) => <FieldValue name={column.key} value={info.getValue()} compact />,
            meta: {
              className: /guid$|^id$/i.test(column.key) ? 'cell-id' : undefined,
            },
          }),
        ),
      ),
    [table.columns],
  );
  const instance = useTable({
    features,
    columns,
    // TanStack Table takes a mutable array type but never mutates it.
    data: table.rows as Row[],
  });

  if (table.rows.length === 0) {
    return <p className="muted record-table-empty">{table.title}: none.</p>;
  }
  return (
    <div
      className="record-table-scroll table-scroll"
      role="region"
      aria-label={`${caption ?? table.title}, scrollable`}
      tabIndex={0}
    >
      <table className="record-table data-table" aria-label={caption ?? table.title}>
        <thead>
          {instance.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col">
                  <instance.FlexRender header={header} />
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {instance.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getAllCells().map((cell) => (
                <td key={cell.id} className={cell.column.columnDef.meta?.className}>
                  <instance.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
