// The what-if's question: which policy (the other published version, another connection's policy
// in force, or numbers of one's own, starting from the policy in force) over which period. Every
// field keeps what was typed when the BFF refuses it, and the refusal is shown under the field it
// names.
import type { FormEvent } from 'react';
import { FieldError, FormField } from '../../../components/ui/form-field';
import { formatCount } from '../../../lib/format';
import { counted } from '../../../shared/counted';
import {
  PLANNING_PERIODS,
  type PlanningPeriod,
  type PlanningPolicies,
  type PolicyLimit,
} from '../../../shared/planning';
import type { DraftField, ModuleDraft, PolicyDraft } from '../policy-draft';

export interface PolicyFormProps {
  policies: PlanningPolicies;
  draft: PolicyDraft;
  onDraft: (draft: PolicyDraft) => void;
  period: PlanningPeriod;
  onPeriod: (period: PlanningPeriod) => void;
  errors: ReadonlyMap<DraftField, string>;
  /** A refusal of the whole policy (no field of its own). */
  policyError: string | null;
  busy: boolean;
  onSubmit: () => void;
}

const errorId = (field: DraftField) => `what-if-error-${field.replace(/[^a-zA-Z0-9-]/g, '-')}`;

function LimitInput({
  field,
  label,
  value,
  errors,
  hint,
  onChange,
}: {
  field: DraftField;
  label: string;
  value: string;
  errors: ReadonlyMap<DraftField, string>;
  hint: string;
  onChange: (value: string) => void;
}) {
  const id = `what-if-${field.replace(/[^a-zA-Z0-9-]/g, '-')}`;
  const error = errors.get(field);
  return (
    <FormField id={id} label={label} className="what-if-field">
      <input
        id={id}
        className="input"
        inputMode="numeric"
        value={value}
        placeholder="no limit"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId(field) : `${id}-hint`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={`${id}-hint`} className="muted what-if-hint">
        {hint}
      </p>
      <FieldError id={errorId(field)} message={error} />
    </FormField>
  );
}

/**
 * A policy's limits on one line, after its name: the account's and the per-endpoint limit by
 * number, the module rules' counted (a published account-and-module policy has over a dozen,
 * which would make the line a paragraph; the result lists them all).
 */
function LimitsInBrief({ limits }: { limits: readonly PolicyLimit[] }) {
  const modules = limits.filter((limit) => limit.scope === 'module').length;
  const named = limits
    .filter((limit) => limit.scope !== 'module')
    .map((limit) => `${limit.name}: ${formatCount(limit.limit)}`);
  return (
    <span className="muted">
      ({[...named, ...(modules > 0 ? [counted(modules, 'module limit')] : [])].join(' · ')})
    </span>
  );
}

export function PolicyForm(props: PolicyFormProps) {
  const { policies, draft, onDraft, errors } = props;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit();
  };
  const setModule = (id: string, change: Partial<ModuleDraft>) =>
    onDraft({
      ...draft,
      modules: draft.modules.map((module) =>
        module.id === id ? { ...module, ...change } : module,
      ),
    });
  return (
    <form className="card what-if-form" onSubmit={submit} aria-labelledby="what-if-form-title">
      <h2 id="what-if-form-title">Replay {policies.connection.label}’s traffic</h2>
      <fieldset className="what-if-choice">
        <legend className="field-label">Policy to compare with the one in force</legend>
        <label>
          <input
            type="radio"
            name="policy-kind"
            checked={draft.kind === 'other'}
            onChange={() => onDraft({ ...draft, kind: 'other' })}
          />{' '}
          {policies.other.label} <LimitsInBrief limits={policies.other.limits} />
        </label>
        {/* Only the connections the person has a role in: the BFF lists no other. */}
        {policies.connections.map((connection) => (
          <label key={connection.name}>
            <input
              type="radio"
              name="policy-kind"
              checked={draft.kind === 'connection' && draft.connection === connection.name}
              onChange={() =>
                onDraft({ ...draft, kind: 'connection', connection: connection.name })
              }
            />{' '}
            {connection.policy.label} <LimitsInBrief limits={connection.policy.limits} />
          </label>
        ))}
        <label>
          <input
            type="radio"
            name="policy-kind"
            checked={draft.kind === 'custom'}
            onChange={() => onDraft({ ...draft, kind: 'custom' })}
          />{' '}
          Numbers of your own, starting from the policy in force
        </label>
      </fieldset>

      {draft.kind === 'custom' ? (
        <div className="stack">
          <div className="what-if-limits">
            <LimitInput
              field="accountMinute"
              label="Account, per minute"
              value={draft.accountMinute}
              errors={errors}
              hint="Every request of the account."
              onChange={(accountMinute) => onDraft({ ...draft, accountMinute })}
            />
            <LimitInput
              field="accountHour"
              label="Account, per hour"
              value={draft.accountHour}
              errors={errors}
              hint="Counted over the 60 minutes up to each minute."
              onChange={(accountHour) => onDraft({ ...draft, accountHour })}
            />
            <LimitInput
              field="endpointMinute"
              label="Each endpoint, per minute"
              value={draft.endpointMinute}
              errors={errors}
              hint="Each method and path on its own."
              onChange={(endpointMinute) => onDraft({ ...draft, endpointMinute })}
            />
          </div>
          <details className="what-if-modules">
            <summary>
              Module rules ({draft.modules.filter((module) => module.on).length} of{' '}
              {draft.modules.length} kept)
            </summary>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Keep</th>
                  <th scope="col">Rule</th>
                  <th scope="col">Per minute</th>
                  <th scope="col">Per hour</th>
                </tr>
              </thead>
              <tbody>
                {draft.modules.map((module) => {
                  const minuteField = `module:${module.id}:minute`;
                  const hourField = `module:${module.id}:hour`;
                  return (
                    <tr key={module.id}>
                      <td>
                        <input
                          type="checkbox"
                          aria-label={`Keep ${module.name}`}
                          checked={module.on}
                          onChange={(event) => setModule(module.id, { on: event.target.checked })}
                        />
                      </td>
                      <td>{module.name}</td>
                      {(
                        [
                          [minuteField, 'minute', module.minute],
                          [hourField, 'hour', module.hour],
                        ] as const
                      ).map(([field, key, value]) => (
                        <td key={key}>
                          <input
                            className="input what-if-module-input"
                            inputMode="numeric"
                            aria-label={`${module.name} per ${key}`}
                            disabled={!module.on}
                            value={value}
                            placeholder="none"
                            aria-invalid={errors.has(field) ? true : undefined}
                            aria-describedby={errors.has(field) ? errorId(field) : undefined}
                            onChange={(event) =>
                              setModule(module.id, { [key]: event.target.value })
                            }
                          />
                          <FieldError id={errorId(field)} message={errors.get(field)} />
                        </td>
                      ))}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </details>
        </div>
      ) : null}

      <div className="cluster what-if-actions">
        <FormField id="what-if-period" label="Period" className="what-if-field">
          <select
            id="what-if-period"
            className="input"
            value={props.period}
            onChange={(event) => props.onPeriod(event.target.value as PlanningPeriod)}
          >
            {policies.periods.map((period) => (
              <option key={period} value={period}>
                {PLANNING_PERIODS[period].label}
              </option>
            ))}
          </select>
        </FormField>
        <button type="submit" className="button button-primary" aria-disabled={props.busy}>
          {props.busy ? 'Replaying…' : 'Replay'}
        </button>
      </div>
      {props.policyError ? (
        <p className="field-error" role="alert">
          {props.policyError}
        </p>
      ) : null}
      <p className="muted what-if-hint">
        Traffic is kept {counted(policies.retentionDays, 'day')}: the console’s own requests and
        what every integration reported.
      </p>
    </form>
  );
}
