// The what-if tab: the form, then the replay's results (or why there are none), and the exports.
// The form keeps what was typed whatever the BFF answers; a refusal lands under its field.
import { useState } from 'react';
import { StatusPanel } from '../../../components/ui/status-panel';
import { ApiError } from '../../../lib/api-client';
import { PROBLEM_TYPES } from '../../../shared/problem';
import type { PlanningPeriod, PlanningPolicies } from '../../../shared/planning';
import { downloadWhatIf, useWhatIf, type ExportFormat } from '../api/planning-api';
import {
  draftFromInForce,
  fieldOfParameter,
  policyOfDraft,
  type DraftField,
  type PolicyDraft,
} from '../policy-draft';
import { PolicyForm } from './policy-form';
import { ReplayResults } from './replay-results';

export interface WhatIfPanelProps {
  policies: PlanningPolicies;
  period: PlanningPeriod;
  onPeriod: (period: PlanningPeriod) => void;
}

/**
 * The console's refusal of one replay too many (429), in the page's words: the policy entered
 * stays in the form, so trying again is one click.
 */
export function replayBusyMessage(retryAfterSeconds: number | undefined): string {
  return retryAfterSeconds === undefined
    ? 'A replay is already running; try again shortly.'
    : `A replay is already running; try again in ${retryAfterSeconds} s.`;
}

export function WhatIfPanel({ policies, period, onPeriod }: WhatIfPanelProps) {
  const [draft, setDraft] = useState<PolicyDraft>(() => draftFromInForce(policies));
  const [localErrors, setLocalErrors] = useState<ReadonlyMap<DraftField, string>>(new Map());
  const [exportError, setExportError] = useState<string | null>(null);
  const replay = useWhatIf(policies.connection.name);

  const problem = replay.error instanceof ApiError ? replay.error.problem : null;
  const refusedField =
    problem?.type === PROBLEM_TYPES.invalidParameter && problem.parameter
      ? fieldOfParameter(problem.parameter, draft)
      : undefined;
  const errors = new Map(localErrors);
  // The detail starts with the parameter's name, which the field's own label already says.
  const refusal = problem
    ? (problem.detail ?? problem.title).replace(`${problem.parameter ?? ''}: `, '')
    : '';
  if (refusedField) errors.set(refusedField, refusal);
  const policyError =
    problem && !refusedField && problem.type === PROBLEM_TYPES.invalidParameter ? refusal : null;

  const submit = () => {
    const parsed = policyOfDraft(draft, policies);
    if (!parsed.ok) {
      setLocalErrors(parsed.errors);
      return;
    }
    setLocalErrors(new Map());
    const request = { policy: parsed.policy, period };
    replay.mutate(request);
  };

  const download = (format: ExportFormat) => {
    if (!replay.data) return;
    setExportError(null);
    try {
      downloadWhatIf(replay.data, format);
    } catch (error) {
      setExportError(error instanceof Error ? error.message : 'The export failed.');
    }
  };

  return (
    <div className="stack">
      <PolicyForm
        policies={policies}
        draft={draft}
        onDraft={setDraft}
        period={period}
        onPeriod={onPeriod}
        errors={errors}
        policyError={policyError}
        busy={replay.isPending}
        onSubmit={submit}
      />
      {replay.isPending ? (
        <StatusPanel role="status" title="Replaying…" busy>
          <p>Every recorded minute of the period, against both policies.</p>
        </StatusPanel>
      ) : null}
      {problem?.type === PROBLEM_TYPES.noRecordedTraffic ? (
        <StatusPanel role="status" tone="warning" title="Nothing to replay">
          <p>{problem.detail}</p>
        </StatusPanel>
      ) : null}
      {problem?.type === PROBLEM_TYPES.replayBusy ? (
        <StatusPanel role="alert" tone="warning" title="Not replayed yet">
          <p>{replayBusyMessage(problem.retryAfterSeconds)}</p>
        </StatusPanel>
      ) : null}
      {replay.error &&
      problem?.type !== PROBLEM_TYPES.invalidParameter &&
      problem?.type !== PROBLEM_TYPES.noRecordedTraffic &&
      problem?.type !== PROBLEM_TYPES.replayBusy ? (
        <StatusPanel role="alert" tone="danger" title="The replay failed">
          <p>{replay.error.message}</p>
        </StatusPanel>
      ) : null}
      {replay.data && !replay.isPending ? (
        <>
          <div className="cluster what-if-exports">
            <button type="button" className="button" onClick={() => download('csv')}>
              Download CSV
            </button>
            <button type="button" className="button" onClick={() => download('markdown')}>
              Download report (Markdown)
            </button>
            {exportError ? (
              <p className="field-error" role="alert">
                {exportError}
              </p>
            ) : null}
          </div>
          <ReplayResults result={replay.data} />
        </>
      ) : null}
      {!replay.data && !replay.isPending && !replay.error ? (
        <StatusPanel title="No replay yet">
          <p>
            Choose a policy and a period, then Replay. The console’s own requests and every
            integration’s reports are replayed a minute at a time against it and against the policy
            in force.
          </p>
        </StatusPanel>
      ) : null}
    </div>
  );
}
