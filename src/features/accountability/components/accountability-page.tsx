// Page `/accountability`, admins and auditors: for a chosen period, what a data-protection officer
// answers a regulator: how many people were looked up and by whom, under which purposes, how many
// lookups had none, every administrative change, and the state of the trail's evidence; saved as
// a signed JSON or Markdown file. People are counted by keyed hash: no identifier is shown.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { ExportStatus } from '../../../components/ui/export-status';
import { LoadErrorPanel } from '../../../components/ui/load-error-panel';
import { PageHeader } from '../../../components/ui/page-header';
import { StatusLine } from '../../../components/ui/status-line';
import { formatCount, formatDateTime } from '../../../lib/format';
import {
  ACCOUNTABILITY_EXPORT_FORMATS,
  type AccountabilityReport,
} from '../../../shared/accountability';
import { accountabilityQueryOptions, useAccountabilityExport } from '../api/accountability-api';
import { parsePeriodChoice, periodBounds, serialisePeriodChoice } from '../period';
import { PeriodPicker } from './period-picker';
import { ActorsTable, ChangesTable, PurposesTable } from './report-tables';
import './accountability.css';

const FORMAT_TEXT = { json: 'JSON', md: 'Markdown' } as const;

const plural = (count: number, one: string, many: string) =>
  `${formatCount(count)} ${count === 1 ? one : many}`;

/** The headline figures, each a sentence a regulator could be read. */
function Figures({ report }: { report: AccountabilityReport }) {
  const { lookups, withoutPurpose } = report;
  return (
    <dl className="accountability-figures">
      <div>
        <dt>People looked up</dt>
        <dd data-testid="people-looked-up">{formatCount(lookups.people)}</dd>
      </div>
      <div>
        <dt>Lookups</dt>
        <dd data-testid="lookups-total">{formatCount(lookups.total)}</dd>
      </div>
      <div>
        <dt>Without a purpose</dt>
        <dd data-testid="lookups-without-purpose">{formatCount(withoutPurpose.lookups)}</dd>
      </div>
      <div>
        <dt>Administrative changes</dt>
        <dd data-testid="changes-total">{formatCount(report.changes.total)}</dd>
      </div>
    </dl>
  );
}

/** "Save as JSON" and "Save as Markdown", and what the last one produced. */
function ExportButtons({ period }: { period: { since?: string; until?: string } }) {
  const exporter = useAccountabilityExport();
  return (
    <div className="accountability-export">
      <div role="group" aria-label="Export the report" className="accountability-export-buttons">
        {ACCOUNTABILITY_EXPORT_FORMATS.map((format) => (
          <button
            key={format}
            type="button"
            className="button button-small"
            disabled={exporter.isPending}
            onClick={() => exporter.mutate({ format, period })}
          >
            Export {FORMAT_TEXT[format]}
          </button>
        ))}
      </div>
      <ExportStatus
        exporter={exporter}
        saved={(result) => (
          <>
            Saved {result.fileName} and its Ed25519 signature {result.signatureName} (key{' '}
            {result.signature.keyFingerprint}), which openssl checks too, as the audit trail’s guide
            shows.
          </>
        )}
      />
    </div>
  );
}

/** The report's sections. */
function Report({ report }: { report: AccountabilityReport }) {
  const { lookups, withoutPurpose } = report;
  return (
    <>
      <section className="card accountability-section" aria-labelledby="accountability-lookups">
        <h2 id="accountability-lookups">Who was looked up, and by whom</h2>
        <Figures report={report} />
        <p>
          {plural(lookups.total, 'lookup', 'lookups')} asked about{' '}
          {plural(lookups.people, 'distinct person', 'distinct people')}
          {lookups.withoutPerson > 0
            ? `; ${plural(lookups.withoutPerson, 'lookup', 'lookups')} listed records by date and named no one`
            : ''}
          . People are counted by the keyed hash of the identifier asked for, so someone looked up
          once by e-mail and once by id counts twice.
        </p>
        <h3>By person or token</h3>
        <ActorsTable report={report} />
      </section>

      <section className="card accountability-section" aria-labelledby="accountability-purposes">
        <h2 id="accountability-purposes">Under which purposes</h2>
        <p data-testid="without-purpose-sentence">
          {/* "Every lookup had a purpose" is vacuously true of an empty period, and would read as
              a finding an auditor could quote. */}
          {lookups.total === 0
            ? 'No lookup was made in this period.'
            : withoutPurpose.lookups === 0
              ? 'Every lookup of the period had a purpose recorded.'
              : `${plural(withoutPurpose.lookups, 'lookup', 'lookups')} (of ${plural(withoutPurpose.people, 'person', 'people')}) had no purpose recorded: made before the console kept purposes, or while stating one was optional.`}
        </p>
        {lookups.total === 0 ? null : <PurposesTable report={report} />}
      </section>

      <section className="card accountability-section" aria-labelledby="accountability-changes">
        <h2 id="accountability-changes">Administrative changes</h2>
        <ChangesTable report={report} />
      </section>

      <section className="card accountability-section" aria-labelledby="accountability-evidence">
        <h2 id="accountability-evidence">Evidence</h2>
        <p
          data-testid="evidence-summary"
          className={
            report.evidence.verification?.ok === false ? 'accountability-broken' : undefined
          }
        >
          {report.evidence.summary}
        </p>
      </section>
    </>
  );
}

/** The accountability page. */
export function AccountabilityPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const choice = useMemo(() => parsePeriodChoice(searchParams), [searchParams]);
  // The month presets are taken from the time the page opened, so the query key holds still.
  const [openedAt] = useState(() => Date.now());
  const bounds = periodBounds(choice, openedAt);
  const period = bounds.ok
    ? {
        ...(bounds.since ? { since: bounds.since } : {}),
        ...(bounds.until ? { until: bounds.until } : {}),
      }
    : {};
  const report = useQuery({ ...accountabilityQueryOptions(period), enabled: bounds.ok });

  return (
    <section className="page page-stack accountability-page" aria-labelledby="accountability-title">
      <PageHeader titleId="accountability-title" title="Accountability">
        For a period: how many people were looked up and by whom, under which purposes, how many
        lookups had none, every administrative change, and whether the trail’s evidence holds. No
        identifier is shown; people are counted by keyed hash.
      </PageHeader>

      <section className="card accountability-section" aria-label="Period and export">
        <PeriodPicker
          choice={choice}
          error={bounds.ok ? null : bounds.error}
          onChange={(next) => setSearchParams(serialisePeriodChoice(next))}
        />
        {report.data ? (
          <p className="muted" data-testid="report-period">
            From {formatDateTime(report.data.period.since)} to{' '}
            {formatDateTime(report.data.period.until)} (end excluded).
          </p>
        ) : null}
        {bounds.ok ? <ExportButtons period={period} /> : null}
      </section>

      {!bounds.ok ? null : report.isPending ? (
        <StatusLine>Counting…</StatusLine>
      ) : report.isError ? (
        <LoadErrorPanel title="The report could not be made" query={report} />
      ) : (
        <Report report={report.data} />
      )}
    </section>
  );
}
