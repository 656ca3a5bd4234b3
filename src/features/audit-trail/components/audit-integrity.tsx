// The trail's integrity at a glance: when its hash chain was last verified and what that found,
// a button to verify it now, and the retention it keeps.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LoadErrorPanel } from '../../../components/ui/load-error-panel';
import { StatusLine } from '../../../components/ui/status-line';
import { auditIntegrityQueryOptions, auditKeys, useVerifyChain } from '../api/audit-trail-api';
import { formatDateTime } from '../format';

/** The integrity card of the audit page. */
export function AuditIntegrityPanel() {
  const integrity = useQuery(auditIntegrityQueryOptions());
  const verify = useVerifyChain();
  const client = useQueryClient();
  const last = integrity.data?.lastVerification ?? null;
  const retention = integrity.data?.retention;

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
        <dl className="audit-integrity-facts">
          <dt>Chain last verified</dt>
          <dd data-testid="chain-last-verified">
            {last ? (
              <>
                <time dateTime={last.at}>{formatDateTime(last.at)}</time>{' '}
                <span className="status-badge" data-tone={last.ok ? 'good' : 'bad'}>
                  {last.ok ? 'Intact' : 'Broken'}
                </span>{' '}
                <span className="muted">
                  {last.detail} (by {last.source})
                </span>
              </>
            ) : (
              <span className="muted">
                Not yet: the daily job verifies it, or press “Verify now”.
              </span>
            )}
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
      )}
      {verify.isError ? <p role="alert">Verifying failed: {verify.error.message}</p> : null}
    </section>
  );
}
