// The header rows of a TanStack table whose rows become cards on narrow screens. The roles are
// spelled out because a table whose display CSS changes loses its semantics in some browsers.
import type { ReactTable, RowData, TableFeatures } from '@tanstack/react-table';

/** Column meta the card tables give every column. */
interface CardColumnMeta {
  readonly className?: string;
}

/** `<thead>` of `table`, each header cell with its column's class. */
export function CardTableHead<TFeatures extends TableFeatures, TData extends RowData>({
  table,
}: {
  table: ReactTable<TFeatures, TData>;
}) {
  return (
    <thead role="rowgroup">
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id} role="row">
          {group.headers.map((header) => (
            <th
              key={header.id}
              scope="col"
              role="columnheader"
              className={(header.column.columnDef.meta as CardColumnMeta | undefined)?.className}
            >
              <table.FlexRender header={header} />
            </th>
          ))}
        </tr>
      ))}
    </thead>
  );
}
