// The v4 migration readiness tab: the share of the connection's data-subject calls already on v4
// (overall, per source, per day), beside the person's other connections', then every legacy
// operation still called, by whom, and what replaces it: what its documented answer adds or
// leaves out, and which limit counts it after.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { LoadErrorPanel } from '../../../components/ui/load-error-panel';
import { StatusPanel } from '../../../components/ui/status-panel';
import { formatCount } from '../../../lib/format';
import {
  PLANNING_PERIODS,
  type LegacyUse,
  type PlanningPeriod,
  type PlanningPolicies,
} from '../../../shared/planning';
import { downloadMigration, migrationQueryOptions, type ExportFormat } from '../api/planning-api';
import { describeReshaped } from '../../../shared/reshaped-fields';
import { percentOf } from '../readiness-share';
import { MigrationComparison } from './migration-comparison';
import { SetAsideList } from './set-aside-list';

/** Fields named in a row before "and N more". */
const FIELDS_SHOWN = 6;

function FieldList({ fields }: { fields: readonly string[] }) {
  if (fields.length === 0) return <>nothing</>;
  const shown = fields.slice(0, FIELDS_SHOWN);
  return (
    <>
      {shown.map((field, index) => (
        <span key={field}>
          {index > 0 ? ', ' : ''}
          <code>{field}</code>
        </span>
      ))}
      {fields.length > shown.length ? ` and ${fields.length - shown.length} more` : ''}
    </>
  );
}

function LegacyRow({ use }: { use: LegacyUse }) {
  return (
    <tr>
      <td>
        <strong>{use.title}</strong>
        <div className="mono muted">
          {use.method} {use.template}
        </div>
      </td>
      <td data-label="Calls">{formatCount(use.calls)}</td>
      <td data-label="Called by">
        {use.callers.map((caller) => (
          <div key={caller.source}>
            {caller.name}: {formatCount(caller.calls)}
          </div>
        ))}
      </td>
      <td data-label="Replace with">
        {use.noReplacement ? <p>{use.noReplacement}</p> : null}
        {use.replacements.map((replacement) => (
          <div key={replacement.operation} className="migration-replacement">
            <strong>v4 · {replacement.title}</strong>{' '}
            <span className="status-badge" data-tone={replacement.complete ? 'good' : 'wait'}>
              {replacement.complete ? 'complete' : 'leaves fields out'}
            </span>
            <div className="mono muted">
              {replacement.method} {replacement.template}
            </div>
            <p>{replacement.note}</p>
            {!replacement.complete ? (
              <p>
                v4 leaves out <FieldList fields={replacement.v4LeavesOut} />.
              </p>
            ) : null}
            {replacement.v4Reshapes.length > 0 ? (
              <ul className="migration-reshapes">
                {replacement.v4Reshapes.map((item) => (
                  <li key={item.path}>
                    <code>{item.path}</code> {describeReshaped(item, (path) => path)}
                  </li>
                ))}
              </ul>
            ) : null}
            {replacement.v4Adds.length > 0 ? (
              <p>
                v4 adds <FieldList fields={replacement.v4Adds} />.
              </p>
            ) : null}
            <p className="muted">
              Counted today by{' '}
              {replacement.ruleBefore
                ? `${replacement.ruleBefore.name} (${replacement.ruleBefore.limits})`
                : 'the account limits only'}
              ; after moving by{' '}
              {replacement.ruleAfter
                ? `${replacement.ruleAfter.name} (${replacement.ruleAfter.limits})`
                : 'the account limits only'}
              .
            </p>
          </div>
        ))}
      </td>
    </tr>
  );
}

export interface MigrationPanelProps {
  policies: PlanningPolicies;
  period: PlanningPeriod;
  onPeriod: (period: PlanningPeriod) => void;
}

export function MigrationPanel({ policies, period, onPeriod }: MigrationPanelProps) {
  const connection = policies.connection.name;
  const report = useQuery(migrationQueryOptions(connection, period));
  const [exportError, setExportError] = useState<string | null>(null);
  const download = (format: ExportFormat) => {
    setExportError(null);
    downloadMigration(connection, period, format).catch((error: unknown) =>
      setExportError(error instanceof Error ? error.message : 'The export failed.'),
    );
  };
  const data = report.data;

  return (
    <div className="stack">
      <div className="card migration-head">
        <div className="cluster migration-tools">
          <label className="field-label" htmlFor="migration-period">
            Period
          </label>
          <select
            id="migration-period"
            className="input"
            value={period}
            onChange={(event) => onPeriod(event.target.value as PlanningPeriod)}
          >
            {policies.periods.map((value) => (
              <option key={value} value={value}>
                {PLANNING_PERIODS[value].label}
              </option>
            ))}
          </select>
          <button type="button" className="button" onClick={() => download('csv')} disabled={!data}>
            Download CSV
          </button>
          <button
            type="button"
            className="button"
            onClick={() => download('markdown')}
            disabled={!data}
          >
            Download report (Markdown)
          </button>
        </div>
        {exportError ? (
          <p className="field-error" role="alert">
            {exportError}
          </p>
        ) : null}
        {data ? (
          data.readiness === null ? (
            <p className="migration-figure">
              No data-subject call was recorded in this period, by the console or any reporting
              integration: there is no readiness figure yet.
            </p>
          ) : (
            <p className="migration-figure">
              <strong>{percentOf(data.readiness)}</strong> of {formatCount(data.dataSubjectCalls)}{' '}
              data-subject calls were already on v4 ({formatCount(data.v4Calls)}).
            </p>
          )
        ) : null}
      </div>

      <MigrationComparison connection={connection} period={period} />

      {report.isPending ? (
        <StatusPanel role="status" title="Reading the period’s calls…" busy />
      ) : null}
      {report.isError ? (
        <LoadErrorPanel title="The readiness report could not be made" query={report} />
      ) : null}

      {data && data.dataSubjectCalls > 0 ? (
        <>
          <div className="migration-grid">
            <section className="card" aria-labelledby="migration-sources-title">
              <h2 id="migration-sources-title">Who is on v4</h2>
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col">Source</th>
                    <th scope="col">Data-subject calls</th>
                    <th scope="col">On v4</th>
                  </tr>
                </thead>
                <tbody>
                  {data.bySource.map((source) => (
                    <tr key={source.source}>
                      <td>{source.name}</td>
                      <td>{formatCount(source.calls)}</td>
                      <td>{percentOf(source.readiness)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <section className="card" aria-labelledby="migration-trend-title">
              <h2 id="migration-trend-title">Per day</h2>
              <ul className="migration-trend">
                {data.trend.map((day) => (
                  <li key={day.day}>
                    <span className="mono">{day.day}</span>
                    <span className="migration-bar" aria-hidden="true">
                      <span style={{ width: `${Math.round((day.readiness ?? 0) * 100)}%` }} />
                    </span>
                    <span>
                      {day.readiness === null
                        ? 'no calls'
                        : `${percentOf(day.readiness)} of ${formatCount(day.calls)}`}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          </div>
          <section className="card" aria-labelledby="migration-legacy-title">
            <h2 id="migration-legacy-title">Legacy calls and what replaces them</h2>
            {data.legacy.length === 0 ? (
              <p>Every data-subject call of this period was already on v4.</p>
            ) : (
              <div
                className="table-scroll"
                role="region"
                aria-label="Legacy calls, scrollable"
                tabIndex={0}
              >
                <table className="data-table migration-legacy">
                  <thead>
                    <tr>
                      <th scope="col">Legacy operation</th>
                      <th scope="col">Calls</th>
                      <th scope="col">Called by</th>
                      <th scope="col">Replace with</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.legacy.map((use) => (
                      <LegacyRow key={use.operation} use={use} />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      ) : null}
      {data ? (
        <SetAsideList
          id="migration-set-aside-title"
          title="Set aside, not counted"
          entries={data.setAside}
          leftOutOf="the readiness figures"
        />
      ) : null}
    </div>
  );
}
