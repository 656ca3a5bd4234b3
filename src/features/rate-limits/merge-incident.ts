// Folds a live incident change into the loaded history: one row per incident key (a newer
// version replaces the older one wherever it is), new incidents on top, newest first.
import type { InfiniteData } from '@tanstack/react-query';
import type { Incident, IncidentPage } from '../../shared/incident';
import { incidentMatches, type IncidentFilters } from './incident-url-state';

/** Newest first, as the server orders them: by first seen, then key. */
function newestFirst(a: Incident, b: Incident): number {
  const byTime = Date.parse(b.firstSeen) - Date.parse(a.firstSeen);
  return byTime !== 0 ? byTime : b.key.localeCompare(a.key);
}

/**
 * The history with `incident` merged in. An older version (lower `seq`) never overwrites a newer
 * one, so a replay arriving after a live update changes nothing.
 */
export function mergeIncident(
  data: InfiniteData<IncidentPage, string | undefined> | undefined,
  incident: Incident,
  filters: IncidentFilters,
): InfiniteData<IncidentPage, string | undefined> | undefined {
  if (!data) return data;
  let found = false;
  let changed = false;
  const pages = data.pages.map((page) => {
    const index = page.items.findIndex((item) => item.key === incident.key);
    if (index === -1) return page;
    found = true;
    const current = page.items[index]!;
    if (current.seq >= incident.seq) return page;
    changed = true;
    const items = [...page.items];
    items[index] = incident;
    return { ...page, items };
  });
  if (found) return changed ? { ...data, pages } : data;
  if (!incidentMatches(incident, filters)) return data;
  const [first, ...rest] = pages;
  if (!first) return { ...data, pages: [{ items: [incident], nextCursor: null }] };
  return {
    ...data,
    pages: [{ ...first, items: [incident, ...first.items].sort(newestFirst) }, ...rest],
  };
}
