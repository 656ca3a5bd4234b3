// The readiness of every connection the person has a role in, side by side: each one's share of
// data-subject calls already on v4 and the legacy calls left, over the same period. Each figure is
// that connection's own report (`/api/connections/{name}/planning/migration`), asked with the
// person's role there, so nothing is shown of a connection they cannot open; one connection's
// report failing leaves the others' figures standing.
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatCount } from '../../../lib/format';
import { connectionPagePath, useConnections } from '../../../lib/connections-query';
import { PLANNING_PERIODS, type PlanningPeriod } from '../../../shared/planning';
import { migrationQueryOptions } from '../api/planning-api';
import { percentOf } from '../readiness-share';

export interface MigrationComparisonProps {
  /** The connection whose page this is. */
  connection: string;
  period: PlanningPeriod;
}

export function MigrationComparison({ connection, period }: MigrationComparisonProps) {
  const connections = useConnections().data ?? [];
  const reports = useQueries({
    queries: connections.map((entry) => migrationQueryOptions(entry.name, period)),
  });
  // One connection has nothing to compare with.
  if (connections.length < 2) return null;
  return (
    <section className="card" aria-labelledby="migration-compare-title">
      <h2 id="migration-compare-title">Your connections compared</h2>
      <p className="muted">
        {PLANNING_PERIODS[period].label}: each connection’s data-subject calls, its own and its
        integrations’.
      </p>
      <table className="data-table migration-compare">
        <thead>
          <tr>
            <th scope="col">Connection</th>
            <th scope="col">On v4</th>
            <th scope="col">Legacy calls left</th>
            <th scope="col">Data-subject calls</th>
          </tr>
        </thead>
        <tbody>
          {connections.map((entry, index) => {
            const report = reports[index];
            const data = report?.data;
            const here = entry.name === connection;
            return (
              <tr key={entry.name} aria-current={here ? 'page' : undefined}>
                {/* A plain cell, as the other tables of the tab: a row header would be shaded. */}
                <td>
                  {here ? (
                    <>
                      {entry.label} <span className="muted">(this page)</span>
                    </>
                  ) : (
                    <Link
                      to={`${connectionPagePath(entry.name, 'planning')}?tab=migration&period=${period}`}
                    >
                      {entry.label}
                    </Link>
                  )}
                </td>
                {data ? (
                  <>
                    <td data-label="On v4">
                      <strong>{percentOf(data.readiness)}</strong>
                    </td>
                    <td data-label="Legacy calls left">
                      {formatCount(data.dataSubjectCalls - data.v4Calls)}
                    </td>
                    <td data-label="Data-subject calls">{formatCount(data.dataSubjectCalls)}</td>
                  </>
                ) : (
                  <td colSpan={3} className="muted">
                    {report?.isError ? 'Could not be read; try again later.' : 'Reading…'}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
