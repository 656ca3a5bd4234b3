// The loaded event-types page: facets, search, summary, export and the table, all driven by the
// view in the URL. Filtering is memoised; a keystroke's result is rendered in the keystroke's own
// frame (see below for why the search is not deferred).
import { useCallback, useId, useMemo, useState } from 'react';
import { counted } from '../../../shared/counted';
import type { EventTypesResponse } from '../../../shared/event-types';
import { FILTER_LIMITS } from '../../../shared/filter-values';
import { downloadCsv } from '../../../lib/csv';
import { ActionButton } from '../../../components/ui/action-button';
import { StatusPanel } from '../../../components/ui/status-panel';
import { hasActiveFilters } from '../event-types-url-state';
import { eventTypesCsv, eventTypesCsvFileName } from '../export-event-types';
import {
  collectFacetUniverse,
  filterEventTypes,
  prepareEventTypes,
  sortEventTypes,
} from '../filter-event-types';
import { useEventTypesView, type FacetKey } from '../use-event-types-view';
import { EventTypesTable } from './event-types-table';
import { FacetFilter } from './facet-filter';
import { Instant } from '../../../components/ui/instant';
import { formatCount } from '../../../lib/format';
import { formatAge } from './format';

export interface EventTypesBrowserProps {
  response: EventTypesResponse;
  /**
   * Asks for a fresh list; absent while a notice above the list (a block, a failure) carries the
   * page's one Refresh, so the page never shows two buttons of which one cannot work.
   */
  onRefresh?: () => void;
  refreshing: boolean;
}

/** Filters, search and the table over a fetched, non-empty list. */
export function EventTypesBrowser({ response, onRefresh, refreshing }: EventTypesBrowserProps) {
  const { state, setSearch, toggleFacetValue, clearFacet, clearFilters, setSort } =
    useEventTypesView();
  const searchId = useId();
  const filtersId = useId();
  // Phone width: the filters fold behind a button so the first rows are on the first screen.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [exported, setExported] = useState<string | undefined>();

  // Per fetch: normalise and collect facet values. Per sort: sort everything once. Per filter
  // change: one pass that keeps that order, so a keystroke never sorts 10,000 rows.
  const rows = useMemo(() => prepareEventTypes(response.items), [response.items]);
  const universe = useMemo(() => collectFacetUniverse(rows), [rows]);
  const sorted = useMemo(() => sortEventTypes(rows, state.sort), [rows, state.sort]);
  // Not deferred: one pass over 10,000 rows and a window of about 27 rows take a few milliseconds,
  // well inside a frame, while deferring them always showed the result a frame (about 17 ms) after
  // the typed character (profiled in bench/RESULTS.md, "Where the table's time goes").
  const result = useMemo(
    () =>
      filterEventTypes(sorted, universe, {
        q: state.q,
        modules: state.modules,
        objectTypes: state.objectTypes,
      }),
    [sorted, universe, state.q, state.modules, state.objectTypes],
  );
  const filtered = hasActiveFilters(state);
  const noMatches = result.rows.length === 0;

  const exportCsv = useCallback(() => {
    const fileName = eventTypesCsvFileName();
    downloadCsv(fileName, eventTypesCsv(result.rows));
    setExported(`Exported ${counted(result.rows.length, 'event type')} to ${fileName}.`);
  }, [result.rows]);
  // Any change of the view starts the table at its first row (and the old confirmation goes).
  const viewKey = JSON.stringify([state.q, state.sort, state.modules, state.objectTypes]);
  const [confirmedView, setConfirmedView] = useState(viewKey);
  if (confirmedView !== viewKey) {
    setConfirmedView(viewKey);
    setExported(undefined);
  }
  const selectedCount = state.modules.length + state.objectTypes.length;

  const toolbar = (
    <div className="event-types-toolbar">
      <div className="event-types-search">
        <label htmlFor={searchId}>Search event types</label>
        <input
          id={searchId}
          className="input"
          type="search"
          placeholder="Name or code"
          autoComplete="off"
          spellCheck={false}
          maxLength={FILTER_LIMITS.maxLength}
          value={state.q}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      <div className="event-types-actions">
        <button
          type="button"
          className="button filters-toggle"
          aria-expanded={filtersOpen}
          aria-controls={filtersId}
          onClick={() => setFiltersOpen((open) => !open)}
        >
          <FilterIcon />
          Filters{selectedCount > 0 ? ` (${selectedCount})` : ''}
        </button>
        <button
          type="button"
          className="button"
          onClick={exportCsv}
          disabled={noMatches}
          title="Download the rows shown, in this order, as a CSV file"
        >
          <DownloadIcon />
          Export CSV
        </button>
      </div>
    </div>
  );

  const filters = (
    <aside
      id={filtersId}
      className="event-types-filters card"
      aria-label="Filters"
      data-open={filtersOpen || undefined}
    >
      <div className="event-types-filters-header">
        <h2>Filters</h2>
        {/* While nothing matches, the empty-result panel offers this action instead: one
            "Clear all filters" on screen at a time. */}
        {filtered && !noMatches ? (
          <button type="button" className="button-link" onClick={clearFilters}>
            Clear all filters
          </button>
        ) : null}
      </div>
      {FACETS.map(({ facet, legend }) => (
        <FacetFilter
          key={facet}
          facet={facet}
          legend={legend}
          options={result[facet]}
          onToggle={toggleFacetValue}
          onClear={clearFacet}
        />
      ))}
    </aside>
  );

  const meta = (
    <div className="event-types-meta">
      <p className="event-types-summary" role="status" aria-live="polite">
        Showing {formatCount(result.rows.length)} of {formatCount(rows.length)} event types
        {exported ? <span className="export-confirmation"> · {exported}</span> : null}
      </p>
      <p className="muted event-types-fetched">
        Data fetched at <Instant at={response.fetchedAt} show="time" /> (
        {formatAge(response.fetchedAt, Date.now())})
        {onRefresh ? (
          <ActionButton className="button-link" onClick={onRefresh} unavailable={refreshing}>
            Refresh
          </ActionButton>
        ) : null}
      </p>
    </div>
  );

  // Search comes first in the DOM so that on a narrow screen, where everything stacks, it is the
  // first thing above the filters; on a wide screen the grid puts the filters in a side column.
  return (
    <div className="event-types-layout">
      {toolbar}
      {filters}
      {meta}
      <div className="event-types-table-area">
        {noMatches ? (
          <StatusPanel
            title="No event types match these filters"
            actions={
              <button type="button" className="button button-primary" onClick={clearFilters}>
                Clear all filters
              </button>
            }
          >
            <p>
              None of the {formatCount(rows.length)} event types matches the search and the selected
              modules and object types. Clear the filters or choose other values.
            </p>
          </StatusPanel>
        ) : (
          <EventTypesTable
            rows={result.rows}
            sort={state.sort}
            onSortChange={setSort}
            viewKey={viewKey}
            highlight={state.q}
          />
        )}
      </div>
    </div>
  );
}

/** The facet filters beside the table, in the order shown. */
const FACETS: readonly { facet: FacetKey; legend: string }[] = [
  { facet: 'modules', legend: 'Module' },
  { facet: 'objectTypes', legend: 'Object type' },
];

/** A 14 px line icon drawn with `path` in the text colour; screen readers skip it. */
function LineIcon({ path, strokeWidth }: { path: string; strokeWidth: number }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" width="14" height="14" fill="none">
      <path
        d={path}
        stroke="currentColor"
        strokeWidth={strokeWidth}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function FilterIcon() {
  return <LineIcon path="M2 3h12l-4.5 5.5V13l-3-1.5v-3z" strokeWidth={1.5} />;
}

function DownloadIcon() {
  return <LineIcon path="M8 2v8m0 0l-3-3m3 3l3-3M3 13h10" strokeWidth={1.6} />;
}
