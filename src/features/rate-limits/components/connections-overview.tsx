// "All connections" on the rate-limits page: one card per connection the person has a role in, each
// a link to that connection's page, with its tightest limit as a meter, every limit as a strip of
// small meters, the blocks running now with a live countdown, and whether its platform answers.
// Every card keeps one height whatever it holds (loading, failing, blocked), so nothing below
// moves when the overview arrives or changes.
import { useId, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { connectionPagePath } from '../../../lib/connections-query';
import { describeApiError } from '../../../lib/describe-problem';
import { formatCount } from '../../../lib/format';
import type { ConnectionOverview, OverviewLimit } from '../../../shared/connection-overview';
import type { ConnectionSummary } from '../../../shared/connections';
import { accountBlock, type BlockState } from '../../../shared/limit-state';
import { limitName } from '../../../shared/rate-limits';
import { overviewQueryOptions } from '../api/overview-api';
import { serverClockOffset } from '../server-clock';
import { BlockedFor } from './blocked-for';
import { headroomLevel } from './headroom-gauges';
import './connections-overview.css';

export interface ConnectionsOverviewProps {
  /** The connection whose page this is: its card is marked. */
  readonly current: string;
  /** The person's connections (the switcher's list): the cards' places while the overview loads. */
  readonly connections: readonly ConnectionSummary[];
}

/** The overview; the page shows it only to a person with more than one connection. */
export function ConnectionsOverview({ current, connections }: ConnectionsOverviewProps) {
  const overview = useQuery(overviewQueryOptions());
  const offsetMs = serverClockOffset(overview);
  const failed = overview.isError
    ? describeApiError(overview.error, 'The overview', (problem) => ({
        title: problem.title,
        advice: '',
      })).title
    : undefined;
  return (
    <section
      className="card rate-limits-section connections-overview"
      aria-labelledby="connections-overview-title"
    >
      <h2 id="connections-overview-title">All connections</h2>
      <ul className="overview-cards">
        {overview.data
          ? overview.data.connections.map((card) => (
              <li key={card.name}>
                <OverviewCard card={card} current={card.name === current} offsetMs={offsetMs} />
              </li>
            ))
          : connections.map((summary) => (
              <li key={summary.name}>
                <PlaceholderCard
                  summary={summary}
                  current={summary.name === current}
                  text={failed ? `Not loaded: ${failed}` : 'Loading…'}
                />
              </li>
            ))}
      </ul>
    </section>
  );
}

/** The link every card is: to the connection's rate-limits page, named by its label. */
function CardLink({
  name,
  label,
  colour,
  current,
  head,
  describedBy,
  blocked = false,
  children,
}: {
  name: string;
  label: string;
  colour: string;
  current: boolean;
  head?: ReactNode;
  describedBy?: string;
  /** A block runs in the connection: the card's edge says so at a glance. */
  blocked?: boolean;
  children: ReactNode;
}) {
  const id = useId();
  // The card's label is the connection's name at its top: the link's name starts with it, so
  // "click Production" reaches it by voice (WCAG 2.5.3), and the figures below are its description
  // rather than its name. axe's experimental label-content-name-mismatch check asks for the whole
  // card's text in the name, which would have a screen reader read every figure twice.
  return (
    <Link
      to={connectionPagePath(name, 'rate-limits')}
      className="overview-card"
      data-blocked={blocked || undefined}
      aria-current={current ? 'page' : undefined}
      aria-labelledby={`${id}-name`}
      aria-describedby={describedBy}
    >
      <span className="overview-card-head">
        <span id={`${id}-name`}>
          <span className="connection-badge" data-colour={colour}>
            {label}
          </span>{' '}
          <span className="visually-hidden">rate limits{current ? ' (this page)' : ''}</span>
        </span>
        {head}
        {current ? (
          <span className="overview-here" aria-hidden="true">
            This page
          </span>
        ) : null}
      </span>
      {children}
    </Link>
  );
}

/** A card whose figures are not known (yet): the same height as a loaded one. */
function PlaceholderCard({
  summary,
  current,
  text,
}: {
  summary: ConnectionSummary;
  current: boolean;
  text: string;
}) {
  return (
    <CardLink {...summary} current={current}>
      <span className="overview-tightest muted">{text}</span>
      <span className="overview-strip" />
      <span className="overview-state" />
    </CardLink>
  );
}

/**
 * The limit with the least headroom left, of those the governor keeps; the first (the account
 * minute limit) when none has been used.
 */
export function tightestLimit(limits: readonly OverviewLimit[]): OverviewLimit | undefined {
  const kept = limits.filter((limit) => limit.enforced && limit.limit > 0);
  return kept.reduce<OverviewLimit | undefined>(
    (tightest, limit) =>
      !tightest || limit.used / limit.limit > tightest.used / tightest.limit ? limit : tightest,
    undefined,
  );
}

/** "Account minute limit", "Endpoint minute limit (GET /api/…)". */
function nameOf(limit: OverviewLimit): string {
  const name = limitName(limit.ruleId, limit.period);
  return limit.endpoint ? `${name} (${limit.endpoint})` : name;
}

/** "12 of 1,000 per minute". */
function figuresOf(limit: OverviewLimit): string {
  const period = limit.period === 'MINUTE' ? 'minute' : 'hour';
  return `${formatCount(limit.used)} of ${formatCount(limit.limit)} per ${period}`;
}

/** The block a card shows: the account's when one runs (it stops everything), else the longest. */
function shownBlock(blocks: readonly BlockState[]): BlockState | undefined {
  return (
    accountBlock(blocks) ?? [...blocks].sort((a, b) => Date.parse(b.until) - Date.parse(a.until))[0]
  );
}

function OverviewCard({
  card,
  current,
  offsetMs,
}: {
  card: ConnectionOverview;
  current: boolean;
  offsetMs: number;
}) {
  const id = useId();
  const tightest = card.limits ? tightestLimit(card.limits) : undefined;
  const block = shownBlock(card.blocks);
  const share = tightest ? tightest.used / tightest.limit : 0;
  return (
    <CardLink
      {...card}
      current={current}
      head={<span className="muted overview-tier">{card.tier}</span>}
      describedBy={`${id}-tightest ${id}-state`}
      blocked={block !== undefined}
    >
      <span className="overview-tightest" id={`${id}-tightest`}>
        {card.limits === null ? (
          <span className="overview-problem">{card.problem}</span>
        ) : tightest ? (
          <>
            <span className="muted overview-tightest-label">Tightest limit</span>
            <span className="overview-tightest-text">
              <span className="overview-tightest-name">{nameOf(tightest)}</span>{' '}
              <strong>{figuresOf(tightest)}</strong>
            </span>
            <span
              className="gauge-track"
              role="meter"
              aria-label={`${nameOf(tightest)}: ${figuresOf(tightest)}`}
              aria-valuemin={0}
              aria-valuemax={tightest.limit}
              aria-valuenow={Math.min(tightest.used, tightest.limit)}
              data-level={headroomLevel(share)}
            >
              <span
                className="gauge-fill"
                // A width computed from data (allowed by the CSP for CSSOM), as the page's gauges.
                style={{ width: `${Math.min(100, share * 100)}%` }}
              />
            </span>
          </>
        ) : (
          <span className="muted">No limit is kept for this connection.</span>
        )}
      </span>
      <LimitStrip limits={card.limits ?? []} />
      <span className="overview-state" id={`${id}-state`}>
        <span className="overview-block-line">
          {block ? (
            <>
              <BlockedFor
                key={block.until}
                until={Date.parse(block.until) + offsetMs}
                block={block}
              />
              {card.blocks.length > 1 ? (
                <span className="muted"> (+{card.blocks.length - 1} more)</span>
              ) : null}
            </>
          ) : (
            <span className="muted">No blocks running</span>
          )}
        </span>
        <PlatformLine card={card} />
      </span>
    </CardLink>
  );
}

/** Every limit as one small meter, in the governor's order: the whole picture in one line. */
function LimitStrip({ limits }: { limits: readonly OverviewLimit[] }) {
  return (
    <span className="overview-strip-row">
      <LimitBars limits={limits} />
      {limits.length > 0 ? (
        <span className="muted overview-strip-count" aria-hidden="true">
          {limits.length} limits
        </span>
      ) : null}
    </span>
  );
}

function LimitBars({ limits }: { limits: readonly OverviewLimit[] }) {
  return (
    <span className="overview-strip" role="list" aria-label="Every limit">
      {limits.map((limit) => {
        const share = limit.limit > 0 ? Math.min(1, limit.used / limit.limit) : 0;
        const text = `${nameOf(limit)}: ${figuresOf(limit)}`;
        return (
          <span
            key={`${limit.ruleId}-${limit.period}-${limit.endpoint ?? ''}`}
            role="listitem"
            className="overview-strip-item"
            title={text}
            data-level={headroomLevel(share)}
          >
            <span
              className="overview-strip-fill"
              // Any use at least a sliver, so one request in 200,000 is not read as none.
              style={{ height: `${share > 0 ? Math.max(12, share * 100) : 0}%` }}
            />
            <span className="visually-hidden">{text}</span>
          </span>
        );
      })}
    </span>
  );
}

/** The platform's and the governor's state, when either is not as it should be. */
function PlatformLine({ card }: { card: ConnectionOverview }) {
  if (card.platform.state === 'unreachable') {
    return (
      <span className="overview-state-line overview-alarm" title={card.platform.title}>
        Platform unreachable{card.platform.title ? `: ${card.platform.title}` : ''}
      </span>
    );
  }
  if (card.platform.state === 'credential-refused') {
    return (
      <span className="overview-state-line overview-alarm" title={card.platform.title}>
        Credential refused: the platform does not accept this connection’s client credentials
      </span>
    );
  }
  if (card.governor === 'fallback') {
    return (
      <span className="overview-state-line overview-warning">
        Counting on this replica’s share of each limit (shared counts unavailable)
      </span>
    );
  }
  return <span className="overview-state-line muted">Platform answering</span>;
}
