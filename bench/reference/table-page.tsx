// The table scenario's peer: the same event types in the plainest page that does the same job —
// TanStack Table for the rows, TanStack Virtual for the window, a search box and two facets with
// counts, no router, no app around it. The bench bundles it on the fly and serves it itself; it is
// never part of the console's build. Its figures are the yardstick the console's are held to.
import { useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';

interface Item {
  code?: number;
  value?: string;
  objectTypeName?: string;
  moduleName?: string;
}
type FacetField = 'moduleName' | 'objectTypeName';

const FIELDS: FacetField[] = ['moduleName', 'objectTypeName'];
const features = tableFeatures({});
const helper = createColumnHelper<typeof features, Item>();
const columns = helper.columns([
  helper.accessor('code', { id: 'code', header: 'Code' }),
  helper.accessor('value', { id: 'value', header: 'Name' }),
  helper.accessor('objectTypeName', { id: 'objectTypeName', header: 'Object type' }),
  helper.accessor('moduleName', { id: 'moduleName', header: 'Module' }),
]);

const keyOf = (item: Item, field: FacetField) => item[field] ?? '(not set)';

function Page({ items }: { items: Item[] }) {
  const [q, setQ] = useState('');
  const [selected, setSelected] = useState<Record<FacetField, string[]>>({
    moduleName: [],
    objectTypeName: [],
  });
  const values = useMemo(
    () =>
      Object.fromEntries(
        FIELDS.map((field) => [
          field,
          [...new Set(items.map((item) => keyOf(item, field)))].sort(),
        ]),
      ) as Record<FacetField, string[]>,
    [items],
  );
  // Same semantics as the console: search on name or code, OR within a facet, AND across, and a
  // facet's counts honour the search and the other facet.
  const { rows, counts } = useMemo(() => {
    const needle = q.trim().toLowerCase();
    const counts = {
      moduleName: new Map<string, number>(),
      objectTypeName: new Map<string, number>(),
    };
    const rows: Item[] = [];
    for (const item of items) {
      if (
        needle &&
        !(item.value ?? '').toLowerCase().includes(needle) &&
        !String(item.code ?? '').includes(needle)
      )
        continue;
      const ok = FIELDS.map(
        (field) => selected[field].length === 0 || selected[field].includes(keyOf(item, field)),
      );
      FIELDS.forEach((field, i) => {
        if (ok[1 - i])
          counts[field].set(keyOf(item, field), (counts[field].get(keyOf(item, field)) ?? 0) + 1);
      });
      if (ok[0] && ok[1]) rows.push(item);
    }
    return { rows, counts };
  }, [items, q, selected]);

  const table = useTable({ features, columns, data: rows });
  const tableRows = table.getRowModel().rows;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 40,
    overscan: 12,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const top = virtualRows[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (virtualRows.at(-1)?.end ?? 0);

  const toggle = (field: FacetField, value: string) =>
    setSelected((now) => ({
      ...now,
      [field]: now[field].includes(value)
        ? now[field].filter((entry) => entry !== value)
        : [...now[field], value],
    }));

  return (
    <div style={{ display: 'flex', gap: 16, font: '14px sans-serif' }}>
      <div>
        {FIELDS.map((field) => (
          <fieldset key={field}>
            <legend>{field}</legend>
            {values[field].map((value) => (
              <label key={value} style={{ display: 'block' }}>
                <input
                  type="checkbox"
                  checked={selected[field].includes(value)}
                  onChange={() => toggle(field, value)}
                />
                {value} ({counts[field].get(value) ?? 0})
              </label>
            ))}
          </fieldset>
        ))}
      </div>
      <div style={{ flex: 1 }}>
        <input type="search" value={q} onChange={(event) => setQ(event.target.value)} />
        <p>
          Showing {rows.length} of {items.length}
        </p>
        <div ref={scroller} style={{ height: 560, overflow: 'auto' }}>
          <table aria-label="Event types" style={{ tableLayout: 'fixed', width: '100%' }}>
            <thead>
              <tr>
                {table.getFlatHeaders().map((header) => (
                  <th key={header.id}>
                    <table.FlexRender header={header} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {top > 0 ? (
                <tr>
                  <td colSpan={4} style={{ height: top }} />
                </tr>
              ) : null}
              {virtualRows.map((virtualRow) => {
                const row = tableRows[virtualRow.index];
                if (!row) return null;
                return (
                  <tr key={row.id} style={{ height: 40 }}>
                    {row.getAllCells().map((cell) => (
                      <td key={cell.id}>
                        <table.FlexRender cell={cell} />
                      </td>
                    ))}
                  </tr>
                );
              })}
              {bottom > 0 ? (
                <tr>
                  <td colSpan={4} style={{ height: bottom }} />
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}

const response = (await (await fetch('/data.json')).json()) as { items: Item[] };
const root = document.getElementById('root');
if (root) createRoot(root).render(<Page items={response.items} />);
