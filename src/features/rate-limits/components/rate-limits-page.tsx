// Page `/c/{connection}/rate-limits`: one connection's live 429 incident panel for support engineers (docs/product.md §7): incidents
// as they happen, how close each limit is, the console's request rate against the limits, and in
// demo mode the controls that provoke each kind of limit.
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { ActionButton } from '../../../components/ui/action-button';
import { ListRegion } from '../../../components/ui/list-region';
import { PageHeader } from '../../../components/ui/page-header';
import { useConsoleMeta } from '../../../lib/console-meta-query';
import { useConnections, usePageConnectionName } from '../../../lib/connections-query';
import { formatCount } from '../../../lib/format';
import { useViewerRole } from '../../../lib/session-query';
import { counted } from '../../../shared/counted';
import type { Incident, Usage } from '../../../shared/incident';
import {
  incidentsQueryOptions,
  rateLimitKeys,
  rulesQueryOptions,
  usageQueryOptions,
} from '../api/rate-limits-api';
import { supportText } from '../copy-for-support';
import { useIncidentSignals, useStreamStatus, type StreamStatus } from '../incident-stream';
import {
  hasIncidentFilters,
  parseIncidentFilters,
  serialiseIncidentFilters,
  type IncidentFilters,
} from '../incident-url-state';
import { withEndedBlocks } from '../ended-early';
import { mergeIncident } from '../merge-incident';
import { serverClockOffset } from '../server-clock';
import { DemoControlsPanel } from './demo-controls-panel';
import { ReportedLimitsPanel } from './reported-limits-panel';
import { HeadroomGauges } from './headroom-gauges';
import { AccountWideView } from './account-wide-view';
import { ConnectionsOverview } from './connections-overview';
import { overviewQueryKey } from '../api/overview-api';
import { IncidentFiltersBar } from './incident-filters';
import { IncidentsTable } from './incidents-table';
import { IncidentExportButtons } from './incident-export-buttons';
import { JumpLink } from './jump-link';
import { accountUsageQueryOptions } from '../api/account-usage-api';
import './rate-limits.css';

// uPlot is the page's largest dependency: its own chunk, fetched after the page shows.
const RequestTimelineChart = lazy(() => import('./request-timeline-chart'));

/** The rate-limits page. */
export function RateLimitsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => parseIncidentFilters(searchParams), [searchParams]);
  const highlightKey = searchParams.get('incident') ?? undefined;
  const setFilters = (next: IncidentFilters) => {
    const params = serialiseIncidentFilters(next);
    if (highlightKey) params.set('incident', highlightKey);
    setSearchParams(params);
  };

  const queryClient = useQueryClient();
  const connection = usePageConnectionName();
  const rules = useQuery(rulesQueryOptions(connection));
  const usage = useQuery(usageQueryOptions(connection));
  const incidents = useInfiniteQuery(incidentsQueryOptions(connection, filters));
  const meta = useConsoleMeta();
  // The connection's account-wide card's data, shared with it through the cache: "Copy for
  // support" says it too.
  const account = useQuery(accountUsageQueryOptions(connection));
  // The person's connections: the overview of every connection shows with more than one.
  const connectionList = useConnections();
  const role = useViewerRole();
  const status = useStreamStatus();

  useIncidentSignals((signal) => {
    // A block starting or ending here shows on this connection's card of the overview at once.
    void queryClient.invalidateQueries({ queryKey: overviewQueryKey });
    if (signal.type === 'resync') {
      void queryClient.invalidateQueries({ queryKey: rateLimitKeys.incidents(connection) });
      return;
    }
    if (signal.type === 'blocks-ended') {
      void queryClient.invalidateQueries({ queryKey: rateLimitKeys.usage(connection) });
      return;
    }
    // Every loaded view (each filter set) of this connection gets the change, if it belongs there.
    const incidentsKey = rateLimitKeys.incidents(connection);
    for (const query of queryClient.getQueryCache().findAll({ queryKey: incidentsKey })) {
      const viewFilters = (query.queryKey[incidentsKey.length] ?? {}) as IncidentFilters;
      queryClient.setQueryData(query.queryKey, (data: Parameters<typeof mergeIncident>[0]) =>
        mergeIncident(data, signal.incident, viewFilters),
      );
    }
    void queryClient.invalidateQueries({ queryKey: rateLimitKeys.usage(connection) });
  });

  const offsetMs = serverClockOffset(usage);
  const rows = useMemo(
    () => incidents.data?.pages.flatMap((page) => page.items) ?? [],
    [incidents.data],
  );

  const [copied, setCopied] = useState<{ key: string; text?: string } | undefined>();
  const usageData = usage.data;
  const ruleList = rules.data?.rules;
  const overview = account.data;
  const onCopy = useCallback(
    (incident: Incident) => {
      const text = supportText(incident, ruleList, usageData?.timeline, meta.data, {
        overview,
        blocks: usageData?.blocks,
      });
      navigator.clipboard.writeText(text).then(
        () => setCopied({ key: incident.key }),
        // No clipboard (permissions, insecure context): show the text to copy by hand.
        () => setCopied({ key: incident.key, text }),
      );
    },
    [ruleList, usageData, meta.data, overview],
  );

  // Demo mode: admins and support engineers (who investigate throttling) alike.
  const showDemo = meta.data?.demoControls === true;
  // Blocks the governor still honours; an incident whose block is not among them ended early.
  const activeBlockKeys = useMemo(
    () =>
      usageData
        ? {
            at: Date.parse(usageData.now),
            keys: new Set(usageData.blocks.flatMap((block) => block.incidentKey ?? [])),
          }
        : undefined,
    [usageData],
  );
  // The chart and the gauges read blocks ended early as over, and forget the count they carried.
  const measuredRows = useMemo(
    () => withEndedBlocks(rows, activeBlockKeys),
    [rows, activeBlockKeys],
  );

  // The sections wait for what places them: whether the demo controls show (they sit above the
  // rest), the tier in the header, and the account-wide card (its limits and table are most of a
  // screen). Drawn before these arrived, everything below jumped down by their height (Lighthouse:
  // layout shifts of 0.7, then 0.24; bench/findings/lighthouse.md). The route starts them all as
  // the page's code loads.
  const placed = !(
    meta.isPending ||
    rules.isPending ||
    connectionList.isPending ||
    account.isPending
  );

  return (
    <section className="page page-stack rate-limits-page" aria-labelledby="rate-limits-title">
      <PageHeader
        titleId="rate-limits-title"
        title="Rate limits"
        aside={<StreamIndicator status={status} />}
      >
        Every 429 the privacy platform returns, live, one row per <code>ot-ratelimit-event-id</code>
        ; and how close the console is to each limit.
        {/* Said with the sections, not before: the header grows by a line with it. */}
        {placed && rules.data
          ? ` Account tier: ${rules.data.accountTier}; limits as published in the platform’s ${
              rules.data.policy === 'per-endpoint'
                ? 'newer per-endpoint rate-limit page'
                : 'account-and-module rate-limit page'
            }.`
          : ''}
      </PageHeader>

      {!placed ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          {/* The list starts far down (below the controls and the account-wide card): a way there at
          any time, not only during a block, and the way back from there. */}
          <nav className="page-jumps" aria-label="On this page">
            <JumpLink id="jump-to-incidents" to="incidents">
              Jump to incidents
              {incidents.data ? ` (${rows.length}${incidents.hasNextPage ? '+' : ''})` : ''}
            </JumpLink>
          </nav>

          {/* Every connection side by side, first: with one connection it would repeat this page.
          Its cards hold their height from the first paint (the switcher's list places them), so
          nothing below moves when their figures arrive. */}
          {connectionList.data && connectionList.data.length > 1 ? (
            <ConnectionsOverview current={connection} connections={connectionList.data} />
          ) : null}

          {/* Auditors change nothing, demo controls included (the BFF answers them 403). */}
          {showDemo && role.data !== 'auditor' ? (
            <DemoControlsPanel connection={connection} />
          ) : null}
          {/* Bursts register as an integration's traffic: an admin's action, like the Integrations page. */}
          <AccountWideView connection={connection} canBurst={showDemo && role.data === 'admin'} />

          <section
            id="incidents"
            tabIndex={-1}
            className="card rate-limits-section incidents-section"
            aria-labelledby="incidents-title"
          >
            <div className="section-head">
              <h2 id="incidents-title">429 incidents</h2>
              <JumpLink className="back-to-top" to="jump-to-incidents">
                Back to the top
              </JumpLink>
              <IncidentFiltersBar filters={filters} rules={ruleList} onChange={setFilters} />
            </div>
            <IncidentExportButtons connection={connection} filters={filters} />
            {copied?.text ? (
              <div className="support-text">
                <label htmlFor="support-text">
                  The clipboard is not available here; copy this text:
                </label>
                <textarea
                  id="support-text"
                  className="input"
                  readOnly
                  rows={8}
                  value={copied.text}
                />
              </div>
            ) : null}
            <ListRegion
              query={incidents}
              loading="Loading incidents…"
              errorTitle="The incidents could not be loaded"
              empty={
                rows.length === 0
                  ? hasIncidentFilters(filters)
                    ? {
                        title: 'No incidents match these filters',
                        text: 'Change or clear the filters to see other incidents.',
                        muted: true,
                      }
                    : {
                        title: 'No 429s so far',
                        text: 'When the privacy platform answers 429, the incident appears here at once.',
                        muted: true,
                      }
                  : undefined
              }
            >
              <>
                <IncidentsTable
                  incidents={rows}
                  rules={ruleList}
                  offsetMs={offsetMs}
                  onCopy={onCopy}
                  highlightKey={highlightKey}
                  copiedKey={copied?.key}
                  activeBlocks={activeBlockKeys}
                />
                {incidents.hasNextPage ? (
                  <ActionButton
                    className="button load-older"
                    unavailable={incidents.isFetchingNextPage}
                    onClick={() => void incidents.fetchNextPage()}
                  >
                    {incidents.isFetchingNextPage ? 'Loading…' : 'Load older incidents'}
                  </ActionButton>
                ) : null}
              </>
            </ListRegion>
          </section>

          {usage.data && usage.data.reported.length > 0 ? (
            <ReportedLimitsPanel
              connection={connection}
              reported={usage.data.reported}
              canReset={role.data === 'admin'}
              offsetMs={offsetMs}
            />
          ) : null}

          <div className="rate-limits-grid">
            <section className="card rate-limits-section" aria-labelledby="headroom-title">
              <h2 id="headroom-title">Headroom</h2>
              <p className="muted section-note">
                Requests this console sent in each limit’s sliding window. Other clients of the
                account share the account limits; the console cannot see their requests, but a 429
                says how many the platform counted, and the gauge then shows that figure.
              </p>
              {status !== 'live' && usage.data ? <StaleNote /> : null}
              {usage.data && rules.data ? (
                <HeadroomGauges
                  usage={usage.data}
                  rules={rules.data.rules}
                  offsetMs={offsetMs}
                  incidents={measuredRows}
                />
              ) : (
                <p className="muted">Loading…</p>
              )}
            </section>

            <section className="card rate-limits-section" aria-labelledby="timeline-title">
              <h2 id="timeline-title">Request rate, last hour</h2>
              {usage.data ? (
                <>
                  {status !== 'live' ? <StaleNote /> : null}
                  <p className="muted section-note">{timelineSummary(usage.data, rows)}</p>
                  <Suspense fallback={<div className="request-timeline-chart" />}>
                    <RequestTimelineChart
                      timeline={usage.data.timeline}
                      minuteLimit={minuteLimit(usage.data)}
                      incidents={measuredRows}
                      offsetMs={offsetMs}
                    />
                  </Suspense>
                  <p className="chart-key muted" aria-hidden="true">
                    <span data-series="sent">Sent upstream</span>
                    <span data-series="refused">Held back by the console</span>
                    <span data-series="limit">Account minute limit</span>
                    <span data-series="incident">
                      429 incident and its block (“429 ×3”: three close together)
                    </span>
                  </p>
                </>
              ) : (
                <p className="muted">Loading…</p>
              )}
            </section>
          </div>
        </>
      )}
    </section>
  );
}

/** Said above the gauges and the chart while the live connection is down. */
function StaleNote() {
  return (
    <p className="stale-note" role="note">
      The live connection dropped: these numbers may be out of date until it is back.
    </p>
  );
}

function minuteLimit(usage: Usage): number {
  // The per-endpoint policy has no account minute limit: its per-endpoint default stands in.
  return (
    usage.rules.find((rule) => rule.ruleId === 'account-minute')?.limit ??
    usage.rules.find((rule) => rule.ruleId === 'endpoint-minute')?.limit ??
    0
  );
}

/** The chart in words, for screen readers and a quick read. */
function timelineSummary(usage: Usage, incidents: readonly Incident[]): string {
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const { sent, refused } = usage.timeline;
  const window = Math.round(60 / usage.timeline.bucketSeconds);
  let peak = 0;
  for (let index = 0; index < sent.length; index += 1) {
    peak = Math.max(peak, sum(sent.slice(Math.max(0, index - window + 1), index + 1)));
  }
  const since = Date.parse(usage.timeline.start);
  // 429s from the stored incidents: the timeline's counters start afresh with the process.
  const recent = incidents.filter((incident) => Date.parse(incident.lastSeen) >= since);
  const hits = sum(recent.map((incident) => incident.hits));
  return `In the last hour the console sent ${counted(sum(sent), 'request')} upstream (at most ${formatCount(peak)} in a minute, against a limit of ${formatCount(minuteLimit(usage))}) and held back ${formatCount(sum(refused))} itself; the platform answered 429 ${counted(hits, 'time')} in ${counted(recent.length, 'incident')}.`;
}

function StreamIndicator({ status }: { status: StreamStatus }) {
  const text = {
    live: 'Live',
    connecting: 'Connecting…',
    reconnecting: 'Reconnecting…',
  }[status];
  return (
    <p className="stream-indicator" data-status={status} role="status">
      <span className="stream-dot" aria-hidden="true" />
      {text}
      {status === 'reconnecting' ? (
        <span className="muted">
          {' '}
          — the live connection dropped; new incidents show once it is back
        </span>
      ) : null}
    </p>
  );
}
