// The event-types table: TanStack Virtual so that 10,000 rows keep a few dozen <tr> in the DOM; a
// real <table> with spacer rows keeps native semantics and column alignment. The rows arrive
// filtered and sorted (filter-event-types.ts), so the table only windows and draws them: a table
// model (TanStack Table, as the other tables use) built a row object for every one of 10,000 rows
// on each keystroke and click only to hand back the rows it was given (profiled in
// bench/findings/table.md).
import { memo, useEffect, useRef, useState } from 'react';
import {
  elementScroll,
  observeElementRect,
  useVirtualizer,
  type Rect,
  type Virtualizer,
} from '@tanstack/react-virtual';
import { EVENT_TYPE_COLUMNS, type EventTypeColumnKey } from '../../../shared/event-types';
import { MissingValue } from '../../../components/ui/missing-value';
import type { EventTypeRow, SortState } from '../filter-event-types';

/** Fixed row height: one line per row (long names are truncated with a tooltip), no measuring. */
const ROW_HEIGHT = 40;
const OVERSCAN = 12;
// Until the scroll box's first size report (observeSizeAfterLayout), assume a typical viewport so
// the first paint already has rows. Its height at 800 px is about 500 px, and the 12 rows of
// overscan cover a box up to about 1,040 px, so no row the first paint shows is missing.
const INITIAL_RECT: Rect = { width: 1024, height: 560 };

// The virtualiser as the library sets it up reads the scroll box's size and scrolls it to its
// offset as the table mounts, inside React's commit. Either makes the browser lay out the whole
// page there and then, in the cold load's longest task (50 to 190 ms of a render task of 300 to
// 550 ms in the profiles of bench/findings/table.md, round five). The layout is the same work
// either way; without those two it happens in the browser's own rendering of the frame, a task
// of its own, before the first paint as before.

/**
 * Tells the virtualiser the scroll box's size from a ResizeObserver alone, which reports it after
 * the frame's layout and before its paint, instead of reading it at once as the default also
 * does. Without ResizeObserver, the default.
 */
function observeSizeAfterLayout(
  instance: Virtualizer<HTMLDivElement, Element>,
  onSize: (rect: Rect) => void,
): (() => void) | undefined {
  const element = instance.scrollElement;
  const Observer = element?.ownerDocument.defaultView?.ResizeObserver;
  if (!element || !Observer) return observeElementRect(instance, onSize);
  // Read in the observer's callback, the layout is current: no extra layout is forced.
  const observer = new Observer(() =>
    onSize({ width: element.clientWidth, height: element.clientHeight }),
  );
  observer.observe(element);
  return () => observer.disconnect();
}

/**
 * Scrolls the box, except to the top while it is there by the virtualiser's account, which scroll
 * events keep: the browser does nothing for that write either (no scroll, no event), but it lays
 * the page out to find so. The mount's write of the initial offset, 0 into a new box, is one.
 */
const scrollUnlessThere: typeof elementScroll<HTMLDivElement> = (offset, options, instance) => {
  if (offset + (options.adjustments ?? 0) === 0 && instance.scrollOffset === 0) return;
  elementScroll(offset, options, instance);
};

const COLUMN_LAYOUT: Record<EventTypeColumnKey, { className: string; width: string }> = {
  code: { className: 'cell-code', width: '7.5rem' },
  value: { className: 'cell-name', width: '40%' },
  objectTypeName: { className: 'cell-object-type', width: '25%' },
  moduleName: { className: 'cell-module', width: '25%' },
};

/** `text` with the first case-insensitive occurrence of `needle` marked. */
function Highlighted({ text, needle }: { text: string; needle: string }) {
  const trimmed = needle.trim();
  if (trimmed === '') return text;
  const at = text.toLowerCase().indexOf(trimmed.toLowerCase());
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <mark>{text.slice(at, at + trimmed.length)}</mark>
      {text.slice(at + trimmed.length)}
    </>
  );
}

/** Search matches in the name and code columns: the two the search looks at. */
const SEARCHED: ReadonlySet<EventTypeColumnKey> = new Set(['code', 'value']);

/** A header click sorts ascending, then descending, then not at all. */
function nextSort(sort: SortState | null, column: EventTypeColumnKey): SortState | null {
  if (sort?.column !== column) return { column, direction: 'asc' };
  return sort.direction === 'asc' ? { column, direction: 'desc' } : null;
}

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

interface CellProps {
  row: EventTypeRow;
  column: EventTypeColumnKey;
  highlight: string;
  onDetails: (row: EventTypeRow) => void;
}

/** One cell's content: the value (search matches marked where searched), or a visible dash. */
function CellContent({ row, column, highlight, onDetails }: CellProps) {
  const value = row[column];
  if (value === undefined) return <MissingValue />;
  const text = String(value);
  const shown = SEARCHED.has(column) ? <Highlighted text={text} needle={highlight} /> : text;
  if (column !== 'value') return shown;
  return (
    <>
      <span className="cell-text">{shown}</span>
      {/* Phone width shows code and name only; the rest is one tap away. */}
      <button
        type="button"
        className="row-details-button"
        aria-label={`All fields of ${text}`}
        onClick={() => onDetails(row)}
      >
        <svg aria-hidden="true" viewBox="0 0 16 16" width="16" height="16">
          <circle cx="3" cy="8" r="1.5" fill="currentColor" />
          <circle cx="8" cy="8" r="1.5" fill="currentColor" />
          <circle cx="13" cy="8" r="1.5" fill="currentColor" />
        </svg>
      </button>
    </>
  );
}

/**
 * One row. Memoised: a scroll, or the virtualiser settling on the box's real size, draws only the
 * rows that came into the window.
 */
const EventTypeTableRow = memo(function EventTypeTableRow({
  row,
  rowIndex,
  highlight,
  onDetails,
}: Omit<CellProps, 'column'> & {
  /** Position in the whole list (the header is row 1). */
  rowIndex: number;
}) {
  return (
    <tr aria-rowindex={rowIndex} style={{ height: ROW_HEIGHT }}>
      {EVENT_TYPE_COLUMNS.map(({ key, label }) => (
        <td
          key={key}
          className={COLUMN_LAYOUT[key].className}
          title={typeof row[key] === 'string' ? row[key] : undefined}
          data-label={label}
        >
          <CellContent row={row} column={key} highlight={highlight} onDetails={onDetails} />
        </td>
      ))}
    </tr>
  );
});

export interface EventTypesTableProps {
  /** Already filtered and sorted. */
  rows: readonly EventTypeRow[];
  sort: SortState | null;
  onSortChange: (sort: SortState | null) => void;
  /** Changes whenever search, sort or filters change: the table then scrolls to its first row. */
  viewKey?: string;
  /** The search text, marked in the name and code cells. */
  highlight?: string;
}

/** A virtualised, sortable table of event types with the accessible name "Event types". */
export const EventTypesTable = memo(function EventTypesTable({
  rows,
  sort,
  onSortChange,
  viewKey = '',
  highlight = '',
}: EventTypesTableProps) {
  const [details, setDetails] = useState<EventTypeRow | undefined>();

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => rows[index]?.id ?? index,
    overscan: OVERSCAN,
    initialRect: INITIAL_RECT,
    observeElementRect: observeSizeAfterLayout,
    scrollToFn: scrollUnlessThere,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const paddingTop = virtualRows[0]?.start ?? 0;
  const paddingBottom = virtualizer.getTotalSize() - (virtualRows.at(-1)?.end ?? 0);
  const columnCount = EVENT_TYPE_COLUMNS.length;

  // A new view starts at its first row: at 10,000 rows scrolled to the bottom, a search must not
  // open on the end of its results.
  const shownView = useRef(viewKey);
  useEffect(() => {
    if (shownView.current === viewKey) return;
    shownView.current = viewKey;
    // Only when scrolled: scrolling, even to where it already is, makes the browser lay the page
    // out synchronously, which was the largest single cost of every keystroke and facet click.
    // The virtualizer tracks the offset from scroll events, so asking costs no layout.
    if (!virtualizer.scrollOffset) return;
    virtualizer.scrollToOffset(0);
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [viewKey, virtualizer]);

  return (
    <>
      <div
        ref={scrollRef}
        className="event-types-scroll"
        // Focusable so keyboard users can scroll it; named so the focus stop makes sense.
        tabIndex={0}
        role="region"
        aria-label="Event types, scrollable"
      >
        <table
          className="event-types-table"
          aria-label="Event types"
          // Only a window of rows exists in the DOM; these tell assistive technology the real size.
          aria-rowcount={rows.length + 1}
        >
          <colgroup>
            {EVENT_TYPE_COLUMNS.map(({ key }) => (
              <col key={key} style={{ width: COLUMN_LAYOUT[key].width }} />
            ))}
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
              {EVENT_TYPE_COLUMNS.map(({ key, label }) => {
                const direction = sort?.column === key ? sort.direction : false;
                return (
                  <th
                    key={key}
                    scope="col"
                    className={COLUMN_LAYOUT[key].className}
                    aria-sort={direction ? ARIA_SORT[direction] : undefined}
                  >
                    <button
                      type="button"
                      className="sort-button"
                      onClick={() => onSortChange(nextSort(sort, key))}
                    >
                      {label}
                      <SortIndicator direction={direction} />
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {paddingTop > 0 ? (
              <tr aria-hidden="true" className="spacer-row">
                <td colSpan={columnCount} style={{ height: paddingTop }} />
              </tr>
            ) : null}
            {virtualRows.map((virtualRow) => {
              const row = rows[virtualRow.index];
              if (!row) return null;
              return (
                <EventTypeTableRow
                  key={row.id}
                  row={row}
                  rowIndex={virtualRow.index + 2}
                  highlight={highlight}
                  onDetails={setDetails}
                />
              );
            })}
            {paddingBottom > 0 ? (
              <tr aria-hidden="true" className="spacer-row">
                <td colSpan={columnCount} style={{ height: paddingBottom }} />
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      {details ? <RowDetails row={details} onClose={() => setDetails(undefined)} /> : null}
    </>
  );
});

/** Every field of one row, in a modal dialog (phone width, where columns are hidden). */
function RowDetails({ row, onClose }: { row: EventTypeRow; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="row-details card"
      aria-labelledby="row-details-title"
      onClose={onClose}
    >
      <h2 id="row-details-title">{row.value ?? 'Event type'}</h2>
      <dl>
        {EVENT_TYPE_COLUMNS.map(({ key, label }) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>{row[key] === undefined ? <MissingValue /> : row[key]}</dd>
          </div>
        ))}
      </dl>
      <form method="dialog">
        <button type="submit" className="button" autoFocus>
          Close
        </button>
      </form>
    </dialog>
  );
}

function SortIndicator({ direction }: { direction: false | 'asc' | 'desc' }) {
  return (
    <svg
      className="sort-indicator"
      data-direction={direction || 'none'}
      aria-hidden="true"
      viewBox="0 0 12 16"
      width="10"
      height="14"
    >
      <path className="sort-up" d="M6 1l4.5 5.5h-9z" />
      <path className="sort-down" d="M6 15l-4.5-5.5h9z" />
    </svg>
  );
}
