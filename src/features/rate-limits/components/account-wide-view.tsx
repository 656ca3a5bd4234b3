// The account-wide part of the rate-limits page: every limit with the console's and each
// integration's requests stacked and the unreported share shown as unknown, the last hour's
// requests per source, the per-integration table, the incidents of every reporter merged, and
// the reported minutes set aside as implausible.
import { blockedLabel, incidentLimitName, sharedBlock } from '../../../shared/limit-state';
import { useQuery } from '@tanstack/react-query';
import { LoadErrorPanel } from '../../../components/ui/load-error-panel';
import { formatCount, formatTime } from '../../../lib/format';
import type { AccountLimit, AccountOverview } from '../../../shared/integrations';
import { limitName } from '../../../shared/rate-limits';
import { accountUsageQueryOptions, useDemoBurst } from '../api/account-usage-api';
import './account-wide-view.css';

const number = formatCount;
const percent = (value: number) =>
  value >= 0.1 ? `${Math.round(value * 100)}%` : `${(value * 100).toFixed(1)}%`;
const time = formatTime;

/** Colour slot of a source: the console first, then each integration in order. */
function slotOf(overview: AccountOverview, id: string): number {
  if (id === 'console') return 0;
  const index = overview.integrations.findIndex((item) => item.id === id);
  return index < 0 ? 6 : (index % 5) + 1;
}

function LimitBar({
  limit,
  overview,
  blockSaidAbove,
}: {
  limit: AccountLimit;
  overview: AccountOverview;
  /** The block is the one every limit of the list shares, said once above it. */
  blockSaidAbove: boolean;
}) {
  const parts = [
    { id: 'console', name: 'This console', used: limit.console },
    ...limit.integrations,
  ].filter((part) => part.used > 0);
  const width = (used: number) => `${Math.min(100, (used / limit.limit) * 100)}%`;
  const label = `${limitName(limit.ruleId, limit.period)}: ${
    parts.map((part) => `${part.name} ${number(part.used)}`).join(', ') || 'nothing reported'
  } of ${number(limit.limit)}; ${
    limit.unreported === null ? 'the rest is unknown' : `${number(limit.unreported)} unreported`
  }`;
  return (
    <li className="account-limit">
      <div className="account-limit-head">
        <span className="account-limit-name">{limitName(limit.ruleId, limit.period)}</span>
        {/* Both figures side by side: what clients reported, and what the platform counted (the
            gauge under Headroom shows the latter). */}
        <span className="muted account-limit-figures">
          {number(limit.reported)} reported
          {limit.unreported === null
            ? ''
            : ` · ${number(limit.reported + limit.unreported)} counted by the platform`}{' '}
          of {number(limit.limit)}
        </span>
      </div>
      <div className="account-limit-bar" role="img" aria-label={label}>
        {parts.map((part) => (
          <span
            key={part.id}
            className="account-limit-part"
            data-slot={slotOf(overview, part.id)}
            style={{ width: width(part.used) }}
            title={`${part.name}: ${number(part.used)}`}
          />
        ))}
        {limit.unreported !== null && limit.unreported > 0 ? (
          <span
            className="account-limit-part"
            data-slot="unreported"
            style={{ width: width(limit.unreported) }}
            title={`Counted by the platform, reported by nobody: ${number(limit.unreported)}`}
          />
        ) : null}
        <span className="account-limit-unknown">
          {limit.unreported === null ? 'rest: unknown (not reported)' : ''}
        </span>
      </div>
      {/* The same state as the gauges, Alerts and the banner: the server's words for the block. */}
      {limit.block ? (
        <p className="gauge-blocked account-limit-blocked">
          {blockSaidAbove ? (
            'Blocked (see above)'
          ) : (
            <>
              {blockedLabel(limit.block)} until {formatTime(limit.block.until)}.{' '}
              <span className="muted">{limit.block.reason}</span>
            </>
          )}
        </p>
      ) : null}
    </li>
  );
}

/**
 * What the bars' fills mean: each reporting source's colour, the hatched "counted by the platform,
 * reported by nobody", and the pale stripes of what is not known at all.
 */
function LimitsKey({ overview }: { overview: AccountOverview }) {
  // A removed integration is no longer listed, but what it reported still fills the bars in the
  // colour of sources outside the list; the key names them so that colour is not a mystery.
  const listed = new Set(overview.integrations.map((integration) => integration.id));
  const unlisted = [
    ...new Set(
      overview.limits.flatMap((limit) =>
        limit.integrations.filter((part) => !listed.has(part.id)).map((part) => part.name),
      ),
    ),
  ];
  return (
    <p className="account-chart-key muted" aria-label="Key to the limit bars">
      <span className="account-key" data-slot={0}>
        This console
      </span>
      {overview.integrations.map((integration) => (
        <span
          key={integration.id}
          className="account-key"
          data-slot={slotOf(overview, integration.id)}
        >
          {integration.name}
        </span>
      ))}
      {unlisted.length > 0 ? (
        <span className="account-key" data-slot={slotOf(overview, '')}>
          {unlisted.join(', ')}
        </span>
      ) : null}
      <span className="account-key" data-slot="unreported">
        Counted by the platform (from its last 429), reported by nobody
      </span>
      <span className="account-key" data-slot="unknown">
        Not reported: unknown
      </span>
    </p>
  );
}

function Timeline({ overview }: { overview: AccountOverview }) {
  const { series } = overview.timeline;
  const length = series[0]?.requests.length ?? 0;
  const totals = Array.from({ length }, (_, index) =>
    series.reduce((sum, source) => sum + (source.requests[index] ?? 0), 0),
  );
  const peak = Math.max(1, ...totals);
  return (
    <>
      <div
        className="account-timeline"
        role="img"
        aria-label={`Requests per minute over the last hour, peak ${number(peak)}`}
      >
        {totals.map((total, index) => (
          <div key={index} className="account-timeline-column" title={`${number(total)} requests`}>
            {series.map((source) =>
              (source.requests[index] ?? 0) > 0 ? (
                <span
                  key={source.id}
                  data-slot={slotOf(overview, source.id)}
                  style={{ height: `${((source.requests[index] ?? 0) / peak) * 100}%` }}
                />
              ) : null,
            )}
          </div>
        ))}
      </div>
      <p className="account-chart-key muted">
        {series.map((source) => (
          <span key={source.id} className="account-key" data-slot={slotOf(overview, source.id)}>
            {source.name}
          </span>
        ))}
        <span className="account-key" data-slot="unknown">
          Clients that do not report: unknown
        </span>
        <span>Peak {number(peak)} a minute</span>
      </p>
    </>
  );
}

function IntegrationsTable({ overview }: { overview: AccountOverview }) {
  if (overview.integrations.length === 0) {
    return (
      <p className="muted">
        No integration reports yet. An admin registers one on the Integrations page and gives it the
        reporting key.
      </p>
    );
  }
  return (
    // Scrolls sideways on a phone: focusable and named, so a keyboard can scroll it too.
    <div
      className="table-scroll"
      role="region"
      aria-label="Requests of each reporting integration, scrollable"
      tabIndex={0}
    >
      <table className="account-integrations" role="table">
        {/* Roles spelled out: the rows become cards on a phone, and a table whose display CSS
            changes loses its semantics in some browsers. */}
        <caption className="visually-hidden">Requests of each reporting integration</caption>
        <thead role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">
              Integration
            </th>
            <th scope="col" role="columnheader">
              Last minute
            </th>
            <th scope="col" role="columnheader">
              Last hour
            </th>
            <th scope="col" role="columnheader">
              Share of limits
            </th>
            <th scope="col" role="columnheader">
              429s (hour)
            </th>
            <th scope="col" role="columnheader">
              Last report
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {overview.integrations.map((row) => (
            <tr key={row.id} role="row" data-stale={row.stale || undefined}>
              <th scope="row" role="rowheader">
                <span className="account-key" data-slot={slotOf(overview, row.id)}>
                  {row.name}
                </span>
                {row.owner ? <span className="muted account-owner"> {row.owner}</span> : null}
              </th>
              <td role="cell" data-label="Last minute">
                {number(row.requestsLastMinute)}
              </td>
              <td role="cell" data-label="Last hour">
                {number(row.requestsLastHour)}
              </td>
              <td role="cell" data-label="Share of limits">
                {row.shares.length === 0
                  ? '—'
                  : row.shares
                      .map(
                        (share) =>
                          `${limitName(share.ruleId, share.period)} ${percent(share.share)}`,
                      )
                      .join(', ')}
              </td>
              <td role="cell" data-label="429s (hour)">
                {number(row.throttledLastHour)}
              </td>
              <td role="cell" data-label="Last report">
                {row.status === 'revoked' ? (
                  <span className="badge">revoked</span>
                ) : row.stale ? (
                  <span
                    className="badge badge-warning"
                    title={`No report for over ${overview.staleAfterSeconds} s`}
                  >
                    stale
                    {row.lastReportAt ? ` since ${time(row.lastReportAt)}` : ': never reported'}
                  </span>
                ) : row.lastReportAt ? (
                  time(row.lastReportAt)
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Incidents({ overview }: { overview: AccountOverview }) {
  if (overview.incidents.length === 0) {
    return <p className="muted">No 429 reported by anyone in the last 24 hours.</p>;
  }
  return (
    <ul className="account-incidents">
      {overview.incidents.slice(0, 10).map((incident) => (
        <li key={incident.key}>
          <div>
            <strong>{incidentLimitName(incident)}</strong>{' '}
            <span className="muted">
              {time(incident.firstSeen)}
              {incident.requestsMade !== null && incident.requestsAllowed !== null
                ? ` · ${number(incident.requestsMade)} made of ${number(incident.requestsAllowed)} allowed`
                : ''}
            </span>
          </div>
          <div>
            Seen by{' '}
            {incident.reporters
              .map((reporter) => `${reporter.name} (${number(reporter.hits)})`)
              .join(', ')}
          </div>
          <div className="muted">
            {incident.topSenders.length === 0
              ? 'No integration reported requests in the minute before.'
              : `Sent most in the minute before: ${incident.topSenders
                  .map((sender) => `${sender.name} (${number(sender.requests)})`)
                  .join(', ')}`}
          </div>
        </li>
      ))}
    </ul>
  );
}

function DemoBursts({ overview, connection }: { overview: AccountOverview; connection: string }) {
  const burst = useDemoBurst(connection);
  if (overview.demoBursts.length === 0) return null;
  const sourceName = (id: string | undefined) =>
    overview.demoBursts.find((source) => source.id === id)?.name ?? 'the integration';
  return (
    <div className="account-demo">
      <span className="muted">Demo: make one integration use up the account minute —</span>
      {overview.demoBursts.map((source) => (
        <button
          key={source.id}
          type="button"
          className="button"
          disabled={burst.isPending}
          onClick={() => burst.mutate(source.id)}
        >
          Burst from {source.name}
        </button>
      ))}
      <span role="status" className="muted">
        {burst.isPending
          ? `Burst from ${sourceName(burst.variables)}: sending…`
          : burst.data
            ? burst.data.status === 429
              ? `Burst from ${sourceName(burst.variables)}: it drew a 429; see the incident below.`
              : `Burst from ${sourceName(burst.variables)}: it was answered ${burst.data.status ?? 'with nothing'}.`
            : burst.isError
              ? `Burst from ${sourceName(burst.variables)} failed: ${burst.error.message}`
              : ''}
      </span>
    </div>
  );
}

/**
 * Minutes one integration claimed a whole account minute in (docs/account-wide-view.md): listed
 * where the figures they are left out of are, so a forged flood is visible, not silently dropped.
 */
function SetAside({ overview }: { overview: AccountOverview }) {
  const minutes = overview.implausible ?? [];
  if (minutes.length === 0) return null;
  return (
    <div className="account-set-aside" role="note" aria-labelledby="account-set-aside-title">
      <h3 id="account-set-aside-title">Set aside as implausible ({minutes.length})</h3>
      <p>
        In these minutes one integration reported as many requests as the whole account can send in
        a minute ({number(minutes[0]?.clampedTo ?? 0)}), or more. They are counted in no limit,
        timeline or forecast above; only the platform’s own 429s can say the account ran out.
      </p>
      <ul>
        {minutes.map((minute) => (
          <li key={`${minute.id}-${minute.minute}`}>
            {minute.name}, {time(minute.minute)}: {number(minute.reported)} requests kept
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * One connection's account-wide section; `canBurst` shows the demo's burst buttons (demo mode,
 * admins).
 */
export function AccountWideView({
  connection,
  canBurst,
}: {
  connection: string;
  canBurst: boolean;
}) {
  const overview = useQuery(accountUsageQueryOptions(connection));
  const data = overview.data;
  const limits = data?.limits.filter(
    (limit) => limit.ruleId.startsWith('account-') || limit.integrations.length > 0,
  );
  const shared = sharedBlock((limits ?? []).map((limit) => limit.block));
  return (
    <section className="card rate-limits-section account-wide" aria-labelledby="account-wide-title">
      <h2 id="account-wide-title">Account-wide: every reporting client</h2>
      <p className="muted section-note">
        The platform counts every client of the account against the same limits. This console and
        each registered integration report their requests; what nobody reports is unknown, not zero.
      </p>
      {overview.isError && !data ? (
        <LoadErrorPanel
          headingLevel={3}
          title="The account-wide view could not be loaded"
          query={overview}
        />
      ) : !data ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          {canBurst ? <DemoBursts overview={data} connection={connection} /> : null}
          <SetAside overview={data} />
          <div className="account-wide-grid">
            <div>
              <h3>Limits</h3>
              {shared ? (
                <p className="gauge-blocked account-limit-blocked">
                  {blockedLabel(shared)}, every limit below until {formatTime(shared.until)}.{' '}
                  <span className="muted">{shared.reason}</span>
                </p>
              ) : null}
              <ul className="account-limits">
                {(limits ?? []).map((limit) => (
                  <LimitBar
                    key={`${limit.ruleId}-${limit.period}`}
                    limit={limit}
                    overview={data}
                    blockSaidAbove={shared !== null && limit.block != null}
                  />
                ))}
              </ul>
              <LimitsKey overview={data} />
            </div>
            <div>
              <h3>Requests per minute, last hour</h3>
              <Timeline overview={data} />
            </div>
          </div>
          <h3>Integrations</h3>
          <IntegrationsTable overview={data} />
          <h3>Incidents, every reporter</h3>
          <Incidents overview={data} />
        </>
      )}
    </section>
  );
}
