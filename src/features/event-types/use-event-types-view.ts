// The event-types view read from and written to the URL: facet and sort changes push history
// entries, typing in the search box replaces one, so back and forward step through real choices.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { NavigationType, useLocation, useNavigationType, useSearchParams } from 'react-router';
import { FILTER_LIMITS } from '../../shared/filter-values';
import {
  parseViewState,
  serialiseViewState,
  type EventTypesViewState,
} from './event-types-url-state';
import type { SortState } from './filter-event-types';

/** The facet lists of the view state. */
export type FacetKey = 'modules' | 'objectTypes';

// Long enough to cover a burst of typing, short enough that a copied link is current. Writing per
// keystroke would also hit Safari's cap on history.replaceState calls.
const SEARCH_WRITE_DELAY_MS = 300;

export interface EventTypesView {
  /** The view as shown: the URL's state, with the search text as typed so far. */
  state: EventTypesViewState;
  /** Updates the search text at once and the URL shortly after, replacing the history entry. */
  setSearch: (text: string) => void;
  /** Ticks or unticks one facet value (a new history entry). */
  toggleFacetValue: (facet: FacetKey, value: string) => void;
  /** Unticks every value of one facet. */
  clearFacet: (facet: FacetKey) => void;
  /** Clears search and both facets; the sort order stays. */
  clearFilters: () => void;
  setSort: (sort: SortState | null) => void;
}

/** Reads and writes the event-types view in the URL's search params. */
export function useEventTypesView(): EventTypesView {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const navigationType = useNavigationType();
  const urlState = useMemo(() => parseViewState(searchParams), [searchParams]);

  // The search box holds its own text: URL updates arrive after the keystroke (and are delayed on
  // purpose), and a controlled input fed from the URL would drop characters typed in between.
  const [search, setSearchText] = useState(urlState.q);
  const [writtenSearch, setWrittenSearch] = useState(urlState.q);
  const [seenLocationKey, setSeenLocationKey] = useState(location.key);
  if (location.key !== seenLocationKey) {
    // Adopt the URL's search text when the user went back or forward, or when something other
    // than this page (a navigation link) changed it; ignore our own writes catching up.
    setSeenLocationKey(location.key);
    if (navigationType === NavigationType.Pop || urlState.q !== writtenSearch) {
      setSearchText(urlState.q);
      setWrittenSearch(urlState.q);
    }
  }

  const state = useMemo(() => ({ ...urlState, q: search }), [urlState, search]);

  // Handlers read the latest view through a ref so they stay stable: the memoised table and facets
  // then skip the urgent re-render of every keystroke.
  const latest = useRef({ state, searchParams, setSearchParams });
  useLayoutEffect(() => {
    latest.current = { state, searchParams, setSearchParams };
  });

  const pendingWrite = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const cancelPendingWrite = useCallback(() => {
    clearTimeout(pendingWrite.current);
    pendingWrite.current = undefined;
  }, []);
  // Leaving the page drops a pending search write instead of navigating back to it.
  useEffect(() => cancelPendingWrite, [cancelPendingWrite]);

  const commit = useCallback(
    (next: EventTypesViewState, replace: boolean) => {
      cancelPendingWrite();
      const params = serialiseViewState(next);
      if (params.toString() === latest.current.searchParams.toString()) return;
      setWrittenSearch(next.q);
      // Later clicks build on this choice even before the router has rendered it: two quick
      // ticks must select both values, not have the second overwrite the first.
      latest.current = { ...latest.current, state: next, searchParams: params };
      // A click (facet, sort, clear) renders its result at once rather than as a transition, so a
      // ticked box never shows unticked while the table catches up; typing keeps transitions.
      latest.current.setSearchParams(params, { replace, flushSync: !replace });
    },
    [cancelPendingWrite],
  );

  const setSearch = useCallback(
    (text: string) => {
      setSearchText(text);
      cancelPendingWrite();
      // Writes whatever the view is when the timer fires, so a back/forward in between wins.
      pendingWrite.current = setTimeout(
        () => commit(latest.current.state, true),
        SEARCH_WRITE_DELAY_MS,
      );
    },
    [cancelPendingWrite, commit],
  );

  const toggleFacetValue = useCallback(
    (facet: FacetKey, value: string) => {
      const current = latest.current.state;
      const selected = current[facet];
      const next = selected.includes(value)
        ? selected.filter((entry) => entry !== value)
        : selected.length < FILTER_LIMITS.maxValues
          ? [...selected, value]
          : selected;
      if (next !== selected) commit({ ...current, [facet]: next }, false);
    },
    [commit],
  );

  const clearFacet = useCallback(
    (facet: FacetKey) => commit({ ...latest.current.state, [facet]: [] }, false),
    [commit],
  );

  const clearFilters = useCallback(() => {
    setSearchText('');
    commit({ ...latest.current.state, q: '', modules: [], objectTypes: [] }, false);
  }, [commit]);

  const setSort = useCallback(
    (sort: SortState | null) => commit({ ...latest.current.state, sort }, false),
    [commit],
  );

  return { state, setSearch, toggleFacetValue, clearFacet, clearFilters, setSort };
}
