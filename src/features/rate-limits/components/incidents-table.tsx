// The live incident table: one row per rate-limiting occurrence (ot-ratelimit-event-id), with its
// hit count, the rule it matched, a countdown to the end of its block, and "Copy for support".
import { useEffect, useMemo, useRef } from 'react';
import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import { CardTableHead } from '../../../components/ui/card-table-head';
import { Instant } from '../../../components/ui/instant';
import type { Incident, Rule } from '../../../shared/incident';
import { endedEarly, type ActiveBlocks } from '../ended-early';
import { useCountdown } from '../../../components/ui/use-countdown';
import { formatCount } from '../../../lib/format';
import { flagText, formatDuration, formatTime, incidentRuleText, periodText } from '../format';

const features = tableFeatures({ columnMeta: {} as { className: string; label: string } });
const columnHelper = createColumnHelper<typeof features, Incident>();

export interface IncidentsTableProps {
  incidents: readonly Incident[];
  rules: readonly Rule[] | undefined;
  /** Add to a server time to get this browser's time. */
  offsetMs: number;
  onCopy: (incident: Incident) => void;
  /** The key of the incident someone linked to, shown highlighted. */
  highlightKey?: string | undefined;
  /** The key whose support text was just copied. */
  copiedKey?: string | undefined;
  /**
   * The incidents whose blocks the console still honours, as of `at` (server time): a block not
   * among them ended early (an operator ended it), whatever its Retry-After said.
   */
  activeBlocks?: ActiveBlocks | undefined;
}

/** A table with the accessible name "429 incidents". */
export function IncidentsTable({
  incidents,
  rules,
  offsetMs,
  onCopy,
  highlightKey,
  copiedKey,
  activeBlocks,
}: IncidentsTableProps) {
  const columns = useMemo(
    () =>
      columnHelper.columns([
        columnHelper.accessor('key', {
          header: 'Incident',
          meta: { className: 'cell-incident', label: 'Incident' },
          cell: (info) => <IncidentIdCell incident={info.row.original} />,
        }),
        columnHelper.accessor('ruleId', {
          header: 'Limit',
          meta: { className: 'cell-rule', label: 'Limit' },
          cell: (info) => {
            const incident = info.row.original;
            return (
              <>
                <span>{incidentRuleText(incident, rules)}</span>
                <span className="cell-sub muted">
                  {incident.ruleId === null
                    ? 'the console paused the account'
                    : incident.scope === 'account'
                      ? 'blocks the account'
                      : 'blocks this quota'}{' '}
                  · {periodText(incident.period)}
                  {incident.requestsAllowed !== null
                    ? ` · ${formatCount(incident.requestsMade ?? 0)} made of ${formatCount(incident.requestsAllowed)} allowed`
                    : ''}
                </span>
              </>
            );
          },
        }),
        columnHelper.accessor('hits', {
          header: '429s',
          meta: { className: 'cell-hits', label: '429s' },
          cell: (info) => <span className="hit-count">{formatCount(info.getValue())}</span>,
        }),
        columnHelper.accessor('firstSeen', {
          header: 'Seen',
          meta: { className: 'cell-seen', label: 'Seen' },
          cell: (info) => {
            const { firstSeen, lastSeen, operation } = info.row.original;
            return (
              <>
                <Instant at={firstSeen} show="time" />
                {lastSeen !== firstSeen ? (
                  <>
                    {' – '}
                    <Instant at={lastSeen} show="time" />
                  </>
                ) : null}
                <span className="cell-sub muted">{operationLabel(operation)}</span>
              </>
            );
          },
        }),
        columnHelper.accessor('blockedUntil', {
          header: 'Block',
          meta: { className: 'cell-block', label: 'Block' },
          cell: (info) => {
            const incident = info.row.original;
            const untilServer = Date.parse(info.getValue());
            if (endedEarly(incident, activeBlocks)) {
              return (
                <span className="block-countdown">
                  Ended early <span className="cell-sub muted">blocks were ended</span>
                </span>
              );
            }
            return <BlockCountdown key={info.getValue()} until={untilServer + offsetMs} />;
          },
        }),
        columnHelper.display({
          id: 'actions',
          header: () => <span className="visually-hidden">Actions</span>,
          meta: { className: 'cell-actions', label: '' },
          cell: (info) => {
            const incident = info.row.original;
            const copied = copiedKey === incident.key;
            return (
              <button
                type="button"
                className="button button-small"
                onClick={() => onCopy(incident)}
                // The name starts with the visible label (speech input users say what they see).
                aria-label={`${copied ? 'Copied' : 'Copy for support'}: incident ${incident.eventId ?? incident.key}`}
              >
                {copied ? 'Copied' : 'Copy for support'}
              </button>
            );
          },
        }),
      ]),
    [rules, offsetMs, onCopy, copiedKey, activeBlocks],
  );

  const table = useTable({
    features,
    columns,
    // TanStack Table takes a mutable array type but never mutates it.
    data: incidents as Incident[],
    getRowId: (row) => row.key,
  });

  useScrollToHighlight(highlightKey, incidents);

  return (
    <div
      className="incidents-scroll"
      role="region"
      aria-label="429 incidents, scrollable"
      tabIndex={0}
    >
      {/* Explicit roles: on narrow screens CSS lays the rows out as cards, and a table whose
          display is changed loses its semantics in some browsers unless they are spelled out. */}
      <table className="incidents-table" aria-label="429 incidents" role="table">
        <CardTableHead table={table} />
        <tbody role="rowgroup">
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              role="row"
              data-key={row.id}
              data-highlight={row.id === highlightKey || undefined}
              // The linked incident ("See the incident") takes focus; the others stay out of the
              // tab order.
              tabIndex={row.id === highlightKey ? -1 : undefined}
              aria-current={row.id === highlightKey ? 'true' : undefined}
              data-flagged={row.original.flags.length > 0 || undefined}
            >
              {row.getAllCells().map((cell) => (
                <td
                  key={cell.id}
                  role="cell"
                  className={cell.column.columnDef.meta?.className}
                  data-label={cell.column.columnDef.meta?.label || undefined}
                >
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * "See the incident" links here with ?incident=KEY: once its row is on the page, it is scrolled
 * to the middle of the view and focused, once per key (a refresh of the list does not pull the
 * reader back). The row may arrive later than the page: the effect runs again as rows come.
 */
function useScrollToHighlight(highlightKey: string | undefined, incidents: readonly Incident[]) {
  const shown = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!highlightKey || shown.current === highlightKey) return;
    const row = document.querySelector<HTMLElement>(
      `.incidents-table tr[data-key="${CSS.escape(highlightKey)}"]`,
    );
    if (!row) return;
    shown.current = highlightKey;
    row.scrollIntoView?.({ block: 'center' });
    row.focus({ preventScroll: true });
  }, [highlightKey, incidents]);
}

function IncidentIdCell({ incident }: { incident: Incident }) {
  return (
    <>
      {incident.eventId ? (
        <code className="incident-event-id" title="ot-ratelimit-event-id">
          {incident.eventId}
        </code>
      ) : (
        <span className="incident-unidentified">
          No event id <code className="cell-sub">{incident.key}</code>
        </span>
      )}
      {incident.flags.length > 0 ? (
        <ul className="incident-flags" aria-label="Header problems">
          {incident.flags.map((flag) => (
            <li key={flag} className="badge" data-kind="flag" title={flagText(flag)}>
              {flag.replace(/-/g, ' ')}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function BlockCountdown({ until }: { until: number }) {
  const remaining = useCountdown(until);
  return remaining > 0 ? (
    <span className="block-countdown" data-active="true">
      <span className="visually-hidden">Blocked, ends in </span>
      <span aria-live="off">{formatDuration(remaining)}</span>
      <span className="cell-sub muted">until {formatTime(until)}</span>
    </span>
  ) : (
    <span className="block-countdown">
      Ended <span className="cell-sub muted">{formatTime(until)}</span>
    </span>
  );
}

/** The console's operation id in words a reader knows. */
function operationLabel(operation: string): string {
  return operation === 'token' ? 'token request' : operation;
}
