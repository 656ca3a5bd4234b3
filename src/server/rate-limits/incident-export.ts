// The 429 history as a file for a ticket or a spreadsheet: every incident the filtered list shows
// (all of its pages, not only those loaded), each limit by its one name and every time in UTC,
// saying so. The headers as received stay out: they are the platform's free text, shown on the
// page for support, and a file travels further than the page.
import { csvCell } from '../../shared/csv-formula';
import type { Incident, IncidentExport } from '../../shared/incident';
import { incidentLimitName } from '../../shared/limit-state';
import { utcText } from '../../shared/utc-text';
import type { IncidentQuery, IncidentStore } from './incident-store';

/**
 * Incidents one file holds at most: far more than a retention's worth of real 429s, and a bound
 * on the work of one request. Past it the newest are exported and the file says it is partial.
 */
export const INCIDENT_EXPORT_MAX = 10_000;
const PAGE = 200;

/** The export's filters: the list's, without paging. */
export type IncidentExportQuery = Omit<IncidentQuery, 'limit' | 'cursor'>;

/** Every incident matching `query`, newest first, up to {@link INCIDENT_EXPORT_MAX}. */
async function collect(
  store: Pick<IncidentStore, 'list'>,
  query: IncidentExportQuery,
): Promise<{ items: Incident[]; complete: boolean }> {
  const items: Incident[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await store.list({ ...query, limit: PAGE, ...(cursor ? { cursor } : {}) });
    items.push(...page.items);
    if (page.nextCursor === null) return { items, complete: true };
    if (items.length >= INCIDENT_EXPORT_MAX) {
      return { items: items.slice(0, INCIDENT_EXPORT_MAX), complete: false };
    }
    cursor = page.nextCursor;
  }
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/** The export's content, as its JSON file is. */
export async function incidentExport(
  store: Pick<IncidentStore, 'list'>,
  query: IncidentExportQuery,
  now: number,
): Promise<IncidentExport> {
  const { items, complete } = await collect(store, query);
  return {
    generatedAt: new Date(now).toISOString(),
    filters: {
      since: iso(query.since),
      until: iso(query.until),
      period: query.period ?? null,
      rule: query.rule ?? null,
    },
    complete,
    incidents: items.map((incident) => ({
      eventId: incident.eventId,
      key: incident.key,
      ruleId: incident.ruleId,
      limit: incidentLimitName(incident),
      period: incident.period,
      firstSeen: incident.firstSeen,
      lastSeen: incident.lastSeen,
      blockedUntil: incident.blockedUntil,
      hits: incident.hits,
      requestsAllowed: incident.requestsAllowed,
      requestsMade: incident.requestsMade,
      retryAfterSeconds: incident.retryAfterSeconds,
      scope: incident.scope,
      operation: incident.operation,
      flags: incident.flags,
    })),
  };
}

type Exported = IncidentExport['incidents'][number];

const CSV_COLUMNS: ReadonlyArray<readonly [string, (row: Exported) => string | number | null]> = [
  ['ot-ratelimit-event-id', (row) => row.eventId],
  ['Incident key', (row) => row.key],
  ['Rule', (row) => row.ruleId],
  ['Limit', (row) => row.limit],
  ['Period', (row) => row.period],
  ['First 429 (UTC)', (row) => utcText(row.firstSeen)],
  ['Last 429 (UTC)', (row) => utcText(row.lastSeen)],
  ['Blocked until (UTC)', (row) => utcText(row.blockedUntil)],
  ['429s', (row) => row.hits],
  ['Requests allowed', (row) => row.requestsAllowed],
  ['Requests made', (row) => row.requestsMade],
  ['Retry-After (seconds)', (row) => row.retryAfterSeconds],
  ['Blocks', (row) => (row.scope === 'account' ? 'every request' : 'the rule’s requests')],
  ['Operation', (row) => row.operation],
  ['Notes', (row) => row.flags.join(' ')],
];

/**
 * The export as CSV (RFC 4180, CRLF, a byte-order mark so spreadsheets read UTF-8, formula-safe
 * cells). A partial file says so in a last line rather than passing for the whole history.
 */
export function incidentCsv(file: IncidentExport): string {
  const line = (cells: ReadonlyArray<string | number | null>) =>
    `${cells.map(csvCell).join(',')}\r\n`;
  const rows = file.incidents.map((row) => line(CSV_COLUMNS.map(([, cell]) => cell(row))));
  const partial = file.complete
    ? []
    : [
        line([
          `Only the newest ${INCIDENT_EXPORT_MAX} incidents: narrow the filters for older ones`,
        ]),
      ];
  return `\ufeff${line(CSV_COLUMNS.map(([name]) => name))}${rows.join('')}${partial.join('')}`;
}
