// What a replay found: the two policies side by side (refused, minutes over, the first breach,
// the headroom at the busiest minute), the chart, who would have drawn the refusals, every breach
// of the policy chosen, and the reports left out as implausible.
import { lazy, Suspense } from 'react';
import { EndpointLabel, endpointText } from '../../../components/ui/endpoint-label';
import { formatCount, formatDateTime } from '../../../lib/format';
import { counted } from '../../../shared/counted';
import type { ReplayOutcome, WhatIfResult } from '../../../shared/planning';
import { PLANNING_PERIODS } from '../../../shared/planning';

import { baselineNote, HOW_COUNTED, policyStatement } from '../../../shared/what-if-report';
import { SetAsideList } from './set-aside-list';

const ReplayChart = lazy(() => import('./replay-chart'));

/** Breaches listed on the page; the export has every one. */
const BREACHES_SHOWN = 25;

function Outcome({
  title,
  outcome,
  note,
}: {
  title: string;
  outcome: ReplayOutcome;
  /** What the figures leave out, said beside them (the baseline's recorded 429s). */
  note?: string;
}) {
  const first = outcome.firstBreach;
  const headroom = outcome.headroom;
  return (
    <section className="card what-if-outcome" aria-label={`${title}: ${outcome.policy.label}`}>
      <h3>
        {title}
        <span className="muted what-if-policy-label">{outcome.policy.label}</span>
      </h3>
      {/* A policy of one's own is stated number by number, as in both exports. */}
      {outcome.policy.choice.kind === 'custom' ? (
        <ul className="what-if-policy-limits" aria-label={`Limits of ${outcome.policy.label}`}>
          {policyStatement(outcome.policy).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
      <p className="what-if-figure" data-tone={outcome.refused > 0 ? 'bad' : 'good'}>
        <strong>{formatCount(outcome.refused)}</strong> requests refused
      </p>
      <dl className="what-if-facts">
        <dt>While a block ran</dt>
        <dd>{formatCount(outcome.refusedWhileBlocked)}</dd>
        <dt>Minutes over a hard limit</dt>
        <dd>{formatCount(outcome.minutesOver)}</dd>
        <dt>Minutes slowed (soft limits)</dt>
        <dd>{formatCount(outcome.minutesSlowed)}</dd>
        <dt>First breach</dt>
        <dd>
          {first
            ? `${formatDateTime(first.minute)}: ${first.name}${first.endpoint ? `, ${endpointText(first.endpoint)}` : ''}, ${formatCount(first.requests)} of ${formatCount(first.limit)}`
            : 'None'}
        </dd>
        <dt>At the busiest minute</dt>
        <dd>
          {headroom
            ? `${headroom.name}${headroom.endpoint ? `, ${endpointText(headroom.endpoint)}` : ''}: ${formatCount(headroom.used)} of ${formatCount(headroom.limit)}, ${headroom.left >= 0 ? `${formatCount(headroom.left)} left` : `${formatCount(-headroom.left)} over`}`
            : 'No hard limit to measure against'}
        </dd>
      </dl>
      {note ? <p className="what-if-baseline-note">{note}</p> : null}
      {outcome.bySource.length > 0 ? (
        <table className="data-table what-if-sources">
          <caption>Who would have drawn the refusals</caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Refused</th>
              <th scope="col">Their requests in those minutes</th>
            </tr>
          </thead>
          <tbody>
            {outcome.bySource.map((source) => (
              <tr key={source.source}>
                <td>{source.name}</td>
                <td>{formatCount(source.refused)}</td>
                <td>{formatCount(source.requests)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

export function ReplayResults({ result }: { result: WhatIfResult }) {
  const { chosen } = result;
  return (
    <div className="stack what-if-results" aria-live="polite">
      {/* Whose traffic, under whose policy: another connection's is named by its label. */}
      <h3 className="what-if-run-title">
        {result.connection.label}’s traffic under {chosen.policy.label}
      </h3>
      <p className="what-if-summary">
        {PLANNING_PERIODS[result.period].label}: {counted(result.requests, 'request')} in{' '}
        {counted(result.activeMinutes, 'minute')}, replayed a minute at a time. Busiest minute{' '}
        {formatDateTime(result.busiestMinute.minute)} with{' '}
        {counted(result.busiestMinute.requests, 'request')}.{' '}
        <span className="muted">
          Run {result.runId}, generated {formatDateTime(result.generatedAt)}; the exports are this
          run.
        </span>
      </p>
      <div className="what-if-outcomes">
        <Outcome
          title={`Under ${result.connection.label}’s policy in force`}
          outcome={result.inForce}
          note={baselineNote(result)}
        />
        <Outcome title="Under the policy chosen" outcome={chosen} />
      </div>
      <section className="card what-if-method" aria-labelledby="what-if-method-title">
        <h3 id="what-if-method-title">How this is counted</h3>
        <ul>
          {HOW_COUNTED.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </section>
      <section className="card what-if-chart" aria-labelledby="what-if-chart-title">
        <h3 id="what-if-chart-title">Traffic against both policies’ minute limits</h3>
        <Suspense fallback={<p className="muted">Loading the chart…</p>}>
          <ReplayChart
            buckets={result.buckets}
            bucketMinutes={result.bucketMinutes}
            inForce={result.inForce.policy}
            chosen={chosen.policy}
          />
        </Suspense>
        <p className="muted what-if-hint">
          Hour limits are not drawn: the replay counts them over the 60 minutes up to each minute.
        </p>
      </section>
      <section className="card" aria-labelledby="what-if-breaches-title">
        <h3 id="what-if-breaches-title">
          Breaches under the policy chosen ({formatCount(chosen.breachesTotal)})
        </h3>
        {chosen.breachesTotal === 0 ? (
          <p>No minute of this period would have gone over the policy chosen.</p>
        ) : (
          <div
            className="table-scroll"
            role="region"
            aria-label="Breaches, scrollable"
            tabIndex={0}
          >
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Minute</th>
                  <th scope="col">Limit</th>
                  <th scope="col">Operation</th>
                  <th scope="col">Requests</th>
                  <th scope="col">Limit</th>
                  <th scope="col">Refused</th>
                </tr>
              </thead>
              <tbody>
                {chosen.breaches.slice(0, BREACHES_SHOWN).map((breach, index) => (
                  <tr key={`${breach.minute}-${breach.ruleId}-${breach.endpoint ?? ''}-${index}`}>
                    <td>{formatDateTime(breach.minute)}</td>
                    <td>
                      {breach.name}
                      {breach.kind === 'soft' ? ' (soft: slows, refuses nothing)' : ''}
                    </td>
                    <td>{breach.endpoint ? <EndpointLabel endpoint={breach.endpoint} /> : '—'}</td>
                    <td>{formatCount(breach.requests)}</td>
                    <td>{formatCount(breach.limit)}</td>
                    <td>{formatCount(breach.refused)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {chosen.breachesTotal > BREACHES_SHOWN ? (
              <p className="muted">
                The first {BREACHES_SHOWN} of {formatCount(chosen.breachesTotal)}; the CSV export
                lists{' '}
                {chosen.breachesTotal > chosen.breaches.length
                  ? `the first ${formatCount(chosen.breaches.length)}`
                  : 'all of them'}
                .
              </p>
            ) : null}
          </div>
        )}
      </section>
      <SetAsideList
        id="what-if-set-aside-title"
        title="Set aside, not replayed"
        entries={result.setAside}
        leftOutOf="both replays"
      />
    </div>
  );
}
