// Demo mode's controls, for admins: provoke each kind of limit (and a 500 or a slow answer) in the
// built-in mock and watch the console handle it; the incident arrives in the table live.
import { ActionButton } from '../../../components/ui/action-button';
import {
  DEMO_SCENARIOS,
  DEMO_SCENARIO_IDS,
  type DemoOutcome,
} from '../../../shared/demo-scenarios';
import { useProvokeScenario, useResetDemo } from '../api/demo-controls-api';

function outcomeText(outcome: DemoOutcome): string {
  const { probe } = outcome;
  const label = DEMO_SCENARIOS[outcome.scenario].label;
  const took = `in ${probe.durationMs} ms`;
  if (probe.outcome === 'refused') {
    return probe.incidentKey
      ? `${label}: nothing was sent — the console is honouring the block of incident ${probe.incidentKey}. Press “End all blocks” to start over.`
      : `${label}: nothing was sent — the console held the call back to stay within a limit.`;
  }
  if (probe.outcome === 'failed') return `${label}: the probe call got no answer ${took}.`;
  if (probe.status === 429) {
    return `${label}: the platform answered 429 ${took}; incident ${probe.incidentKey ?? 'recorded'}.`;
  }
  return `${label}: the platform answered ${probe.status} ${took}.`;
}

/** The demo panel; render it only in demo mode for admins. */
export function DemoControlsPanel({ connection }: { connection: string }) {
  const provoke = useProvokeScenario(connection);
  const reset = useResetDemo(connection);
  const busy = provoke.isPending || reset.isPending;
  return (
    <section className="card demo-controls" aria-labelledby="demo-controls-title">
      <div className="demo-controls-head">
        <h2 id="demo-controls-title">Demo controls</h2>
        <p className="muted">
          Built-in mock only. Each control arms the mock, then the console sends one call through
          its governor, as real use would.
        </p>
      </div>
      <div className="demo-controls-buttons">
        {DEMO_SCENARIO_IDS.map((scenario) => (
          <ActionButton
            key={scenario}
            className="button"
            unavailable={busy}
            title={DEMO_SCENARIOS[scenario].description}
            onClick={() => {
              reset.reset();
              provoke.mutate(scenario);
            }}
          >
            {DEMO_SCENARIOS[scenario].label}
          </ActionButton>
        ))}
        <ActionButton
          className="button button-link"
          unavailable={busy}
          onClick={() => {
            provoke.reset();
            reset.mutate();
          }}
        >
          End all blocks
        </ActionButton>
      </div>
      <p className="demo-controls-outcome" role="status">
        {provoke.isPending
          ? 'Working…'
          : provoke.data
            ? outcomeText(provoke.data)
            : provoke.isError
              ? `The control failed: ${provoke.error.message}`
              : reset.isPending
                ? 'Ending every block…'
                : reset.isSuccess
                  ? 'Every block in the mock and the console has ended.'
                  : reset.isError
                    ? `Ending the blocks failed: ${reset.error.message}`
                    : ''}
      </p>
    </section>
  );
}
