// The event-types view read from and written to the URL: facet and sort changes push history
// entries, typing in the search box replaces one, so back and forward step through real choices.
// The page shows a change at once; the URL follows once the changes pause.
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

/**
 * How long the URL waits after the last change of the view. Long enough to cover a burst of typing
 * or of ticks, short enough that a copied link is current. Writing the URL renders the whole app
 * around the page through the router (about 4 ms of the main thread here, pushState included,
 * bench/findings/table.md): written after each tick, it pushed the frame after the tick back, and
 * a second tick waited for it. Writing per keystroke would also hit Safari's cap on
 * history.replaceState calls.
 */
export const URL_WRITE_DELAY_MS = 300;

export interface EventTypesView {
  /** The view as shown: the URL's state, with the search text as typed so far. */
  state: EventTypesViewState;
  /** Updates the search text at once and the URL after a pause, replacing the history entry. */
  setSearch: (text: string) => void;
  /** Ticks or unticks one facet value at once (a new history entry, written after a pause). */
  toggleFacetValue: (facet: FacetKey, value: string) => void;
  /** Unticks every value of one facet. */
  clearFacet: (facet: FacetKey) => void;
  /** Clears search and both facets; the sort order stays. */
  clearFilters: () => void;
  setSort: (sort: SortState | null) => void;
}

/** Whether two views choose the same facet values and sort (the search text aside). */
function sameChoice(a: EventTypesViewState, b: EventTypesViewState): boolean {
  const choiceOf = (view: EventTypesViewState) => serialiseViewState({ ...view, q: '' }).toString();
  return choiceOf(a) === choiceOf(b);
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
  // A click's choice (facet, sort, clear), shown at once while the URL catches up after a pause
  // (see `commit`).
  const [clicked, setClicked] = useState<EventTypesViewState | undefined>();
  const [seenLocationKey, setSeenLocationKey] = useState(location.key);
  if (location.key !== seenLocationKey) {
    setSeenLocationKey(location.key);
    // The URL now holds the view: the clicks' writes caught up (all land in one task), or the
    // user went elsewhere (back, forward, a link), which wins over clicks not yet written
    // (writeClicks then drops them).
    setClicked(undefined);
    // Adopt the URL's search text when the user went back or forward, or when something other
    // than this page (a navigation link) changed it; ignore our own writes catching up.
    if (navigationType === NavigationType.Pop || urlState.q !== writtenSearch) {
      setSearchText(urlState.q);
      setWrittenSearch(urlState.q);
    }
  }

  // The choice shown: a click's until the URL has it, then the URL's, kept as the same object
  // when it is the same choice, so the URL catching up re-renders none of the page.
  const shownChoice = useRef<EventTypesViewState | undefined>(undefined);
  const choice =
    clicked ??
    (shownChoice.current && sameChoice(shownChoice.current, urlState)
      ? shownChoice.current
      : urlState);
  useLayoutEffect(() => {
    shownChoice.current = choice;
  });
  const state = useMemo(() => ({ ...choice, q: search }), [choice, search]);

  // Handlers read the latest view through a ref so they stay stable: the memoised table and facets
  // then skip the urgent re-render of every keystroke.
  const current = { state, searchParams, setSearchParams, locationKey: location.key };
  const latest = useRef(current);
  useLayoutEffect(() => {
    latest.current = current;
  });

  const pendingWrite = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const cancelPendingWrite = useCallback(() => {
    clearTimeout(pendingWrite.current);
    pendingWrite.current = undefined;
  }, []);
  // Clicks whose history entries are still to be written, in order, and the URL they follow.
  const clickWrites = useRef<{ entries: URLSearchParams[]; after: string } | undefined>(undefined);
  const clickTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Leaving the page drops pending writes instead of navigating back to it.
  useEffect(
    () => () => {
      cancelPendingWrite();
      clearTimeout(clickTimer.current);
      clickWrites.current = undefined;
    },
    [cancelPendingWrite],
  );

  const writeClicks = useCallback(() => {
    const writes = clickWrites.current;
    clickWrites.current = undefined;
    // Back, forward or a link since the click: the URL the user went to wins.
    if (!writes || writes.after !== latest.current.locationKey) return;
    // One task: the router renders once, with the last of them.
    for (const params of writes.entries) latest.current.setSearchParams(params);
  }, []);

  const commit = useCallback(
    (next: EventTypesViewState, replace: boolean) => {
      cancelPendingWrite();
      const params = serialiseViewState(next);
      // What the URL holds once the clicks waiting to be written are.
      const ahead = clickWrites.current?.entries.at(-1) ?? latest.current.searchParams;
      if (params.toString() === ahead.toString()) return;
      setWrittenSearch(next.q);
      // Later clicks build on this choice even before the router has rendered it: two quick
      // ticks must select both values, not have the second overwrite the first.
      latest.current = { ...latest.current, state: next, searchParams: params };
      if (replace) {
        latest.current.setSearchParams(params, { replace });
        return;
      }
      // A click (facet, sort, clear) shows its result in its own frame: the page renders from
      // this state at once, and the URL, whose navigation renders the whole app around the page,
      // follows once the clicks pause. Each click keeps its own history entry.
      setClicked(next);
      if (clickWrites.current) clickWrites.current.entries.push(params);
      else clickWrites.current = { entries: [params], after: latest.current.locationKey };
      clearTimeout(clickTimer.current);
      clickTimer.current = setTimeout(writeClicks, URL_WRITE_DELAY_MS);
    },
    [cancelPendingWrite, writeClicks],
  );

  // Writes whatever the view is now, so a back/forward since the keystroke wins.
  const writeSearch = useCallback(() => {
    pendingWrite.current = undefined;
    commit(latest.current.state, true);
  }, [commit]);

  // Leaving by a link (the navigation, a link in a banner) within the delay: the URL catches up
  // first, in the click's own task, so back returns to the view as it was shown, not to the one
  // before its last changes. The capture phase runs before the router's own click handler. Back,
  // forward and anything else that leaves still drop what is pending (the cleanup above).
  useEffect(() => {
    const catchUpBeforeLink = (event: MouseEvent) => {
      if (!(event.target instanceof Element) || !event.target.closest('a[href]')) return;
      if (clickWrites.current) {
        clearTimeout(clickTimer.current);
        writeClicks();
      }
      if (pendingWrite.current !== undefined) writeSearch();
    };
    document.addEventListener('click', catchUpBeforeLink, true);
    return () => document.removeEventListener('click', catchUpBeforeLink, true);
  }, [writeClicks, writeSearch]);

  const setSearch = useCallback(
    (text: string) => {
      setSearchText(text);
      cancelPendingWrite();
      pendingWrite.current = setTimeout(writeSearch, URL_WRITE_DELAY_MS);
    },
    [cancelPendingWrite, writeSearch],
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
