// The trail's integrity at a glance: when its hash chain was last verified and what that found
// (a broken chain loudly, with its first broken point), what was written since, the latest signed
// checkpoint and where copies go, a button to verify it now, and the retention it keeps. Setting
// names are for whoever runs the console: folded under "For operators", and only for admins.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LoadErrorPanel } from '../../../components/ui/load-error-panel';
import { StatusLine } from '../../../components/ui/status-line';
import { auditIntegrityQueryOptions, auditKeys, useVerifyChain } from '../api/audit-trail-api';
import { Instant } from '../../../components/ui/instant';
import { formatCount, formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session-query';

/** The integrity card of the audit page. */
export function AuditIntegrityPanel() {
  const integrity = useQuery(auditIntegrityQueryOptions());
  const verify = useVerifyChain();
  const client = useQueryClient();
  const last = integrity.data?.lastVerification ?? null;
  const retention = integrity.data?.retention;
  const checkpoints = integrity.data?.checkpoints;
  const since = integrity.data?.entriesSinceVerification ?? 0;
  // A walk of an empty trail (the daily job on a new console) verified nothing: "0 entries
  // intact" would read as a result, so it is shown as not verified yet.
  const verified = last !== null && (!last.ok || last.entries > 0);
  // Auditors read the trail; the console's settings are an admin's to pass on to its operator.
  const operator = useSession().data?.role === 'admin';

  return (
    <section className="card audit-section audit-integrity" aria-labelledby="audit-integrity-title">
      <div className="section-head">
        <h2 id="audit-integrity-title">Integrity</h2>
        <button
          type="button"
          className="button button-small"
          disabled={verify.isPending}
          onClick={() =>
            verify.mutate(undefined, {
              onSettled: () => void client.invalidateQueries({ queryKey: auditKeys.integrity() }),
            })
          }
        >
          {verify.isPending ? 'Verifying…' : 'Verify now'}
        </button>
      </div>
      {integrity.isPending ? (
        <StatusLine>Loading…</StatusLine>
      ) : integrity.isError ? (
        <LoadErrorPanel
          headingLevel={3}
          title="The trail’s integrity could not be loaded"
          query={integrity}
        />
      ) : (
        <>
          {last && !last.ok ? (
            <p className="audit-broken" role="alert">
              <strong>
                AUDIT CHAIN BROKEN{last.brokenAt === null ? '' : ` at entry ${last.brokenAt}`}
              </strong>
              : {last.detail}. Keep this database and the checkpoint copies as they are and tell
              whoever audits the console.
            </p>
          ) : null}
          <dl className="audit-integrity-facts">
            <dt>Chain last verified</dt>
            <dd data-testid="chain-last-verified">
              {last && verified ? (
                <>
                  <Instant at={last.at} />{' '}
                  <span className="status-badge" data-tone={last.ok ? 'good' : 'bad'}>
                    {last.ok ? 'Intact' : 'Broken'}
                  </span>{' '}
                  <span className="muted">
                    {last.ok ? `${last.detail} ` : ''}(by {last.source})
                  </span>
                  {since ? (
                    <span className="cell-sub" data-testid="entries-since">
                      {formatCount(since)} {since === 1 ? 'entry' : 'entries'} (lookups and changes)
                      written since: not verified yet. Press “Verify now” to cover them.
                    </span>
                  ) : null}
                </>
              ) : (
                <span className="muted">
                  Not yet: the daily job verifies it, or press “Verify now”.
                </span>
              )}
            </dd>
            <dt>Signed checkpoints</dt>
            <dd data-testid="checkpoints">
              {checkpoints?.latest ? (
                <>
                  Latest: entry {formatCount(checkpoints.latest.seq)},{' '}
                  <Instant at={checkpoints.latest.at} />{' '}
                  <span className="muted">(key {checkpoints.latest.keyFingerprint})</span>
                </>
              ) : (
                <span className="muted">None yet.</span>
              )}{' '}
              <span className="cell-sub muted">
                Taken every {checkpoints?.everyMinutes} minutes while the trail grows and after each
                export; kept in the database, the log and alert destinations subscribed to audit
                checkpoints
                {checkpoints?.outsideDirectory ? ', and in a directory outside the database.' : '.'}
              </span>
              {checkpoints && !checkpoints.outsideDirectory ? (
                <span className="cell-sub" data-tone="warn">
                  No copy is kept outside the database: a trail cut short or wiped by someone with
                  access to the database is caught only by copies that left it (the shipped log,
                  alert destinations).
                </span>
              ) : null}
              {checkpoints?.outsideFailure ? (
                <span className="cell-sub" data-tone="warn" data-testid="checkpoint-dir-failure">
                  The copy outside the database could not be written at{' '}
                  {formatDateTime(checkpoints.outsideFailure.at)}. The database and the log hold the
                  checkpoint; once the directory is fixed, the next one is written there again.
                </span>
              ) : null}
              {operator &&
              checkpoints &&
              (!checkpoints.outsideDirectory || checkpoints.outsideFailure) ? (
                <details className="operator-hints" data-testid="operator-hints">
                  <summary>For operators</summary>
                  {checkpoints.outsideDirectory ? null : (
                    <p>
                      Set <code>AUDIT_CHECKPOINT_DIR</code> to a directory outside the database (the
                      audit trail’s documentation, “Checkpoints”).
                    </p>
                  )}
                  {checkpoints.outsideFailure ? <p>{checkpoints.outsideFailure.error}.</p> : null}
                </details>
              ) : null}
            </dd>
            <dt>Retention</dt>
            <dd>
              Records are kept {retention?.days} days.{' '}
              {retention?.lastRun ? (
                <span className="muted">
                  Last run {formatDateTime(retention.lastRun.at)}: {retention.lastRun.deleted}{' '}
                  {retention.lastRun.deleted === 1 ? 'record' : 'records'} older than{' '}
                  {formatDateTime(retention.lastRun.cutoff)} deleted.
                </span>
              ) : (
                <span className="muted">The daily job has not run yet.</span>
              )}
            </dd>
          </dl>
        </>
      )}
      {verify.isError ? <p role="alert">Verifying failed: {verify.error.message}</p> : null}
    </section>
  );
}
