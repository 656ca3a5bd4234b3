// A failed lookup in plain words; "no data subject with this identifier" is shown as the answer it
// is, not as an error.
import { StatusPanel } from '../../../components/ui/status-panel';
import { ApiError } from '../../../lib/api-client';
import { describeLookupProblem } from '../describe-lookup-problem';

/** The panel for a lookup's error. */
export function LookupProblem({
  error,
  headingLevel = 2,
}: {
  error: unknown;
  headingLevel?: 2 | 3;
}) {
  const text = describeLookupProblem(error);
  const incidentId = error instanceof ApiError ? error.problem.incidentId : undefined;
  return (
    <StatusPanel
      title={text.title}
      tone={text.tone}
      role={text.tone === 'neutral' ? 'status' : 'alert'}
      headingLevel={headingLevel}
    >
      <p>{text.advice}</p>
      {text.technical ? (
        <details className="problem-technical">
          <summary>Details</summary>
          <p className="muted">{text.technical}</p>
        </details>
      ) : null}
      {incidentId ? (
        <p className="muted">
          Incident ID: <code>{incidentId}</code> (see Rate limits)
        </p>
      ) : null}
    </StatusPanel>
  );
}
