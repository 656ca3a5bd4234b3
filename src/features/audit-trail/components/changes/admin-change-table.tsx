// Administrative changes as a table (cards on narrow screens, like the lookups): when, in which
// platform connection, who (a
// token's name beside its owner), from where, and what, with the state before and after behind a
// disclosure. Secrets were never recorded: their fingerprints are labelled as such.
import type { AdminChange } from '../../../../shared/admin-changes';
import { changeSentence, stateLines } from '../../change-text';
import { Instant } from '../../../../components/ui/instant';
import { ConnectionName } from '../connection-name';

function StateList({ title, state }: { title: string; state: Record<string, unknown> | null }) {
  const lines = stateLines(state);
  return (
    <div className="change-state">
      <span className="change-state-title">{title}</span>
      {lines.length === 0 ? (
        <span className="muted">{state === null ? 'did not exist' : 'nothing recorded'}</span>
      ) : (
        <ul>
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Row({ change }: { change: AdminChange }) {
  const hasStates = change.before !== null || change.after !== null;
  return (
    <tr role="row">
      <td role="cell" className="cell-time" data-label="When">
        <div className="cell-content">
          <Instant at={change.at} />
        </div>
      </td>
      <td role="cell" className="cell-connection" data-label="Connection">
        <div className="cell-content">
          <ConnectionName name={change.connection} />
        </div>
      </td>
      <td role="cell" className="cell-user" data-label="Who">
        <div className="cell-content">
          {change.user}
          {change.token ? (
            <span className="cell-sub muted">with the token “{change.token.name}”</span>
          ) : null}
        </div>
      </td>
      <td role="cell" className="cell-address" data-label="From">
        <div className="cell-content">
          <code>{change.address}</code>
        </div>
      </td>
      <td role="cell" className="cell-detail" data-label="What">
        <div className="cell-content">
          <span>{changeSentence(change)}</span>
          <code className="cell-sub muted">{change.action}</code>
          {hasStates ? (
            <details className="change-states">
              <summary>Before and after</summary>
              <StateList title="Before" state={change.before} />
              <StateList title="After" state={change.after} />
            </details>
          ) : null}
        </div>
      </td>
    </tr>
  );
}

/** The changes, newest first, in a table named `label`. */
export function AdminChangeTable({
  changes,
  label,
}: {
  changes: readonly AdminChange[];
  label: string;
}) {
  return (
    <div
      className="audit-scroll table-scroll"
      role="region"
      aria-label={`${label}, scrollable`}
      tabIndex={0}
    >
      {/* Explicit roles: on narrow screens CSS lays rows out as cards. */}
      <table className="audit-table data-table" aria-label={label} role="table">
        <thead role="rowgroup">
          <tr role="row">
            <th role="columnheader" scope="col">
              When
            </th>
            <th role="columnheader" scope="col">
              Connection
            </th>
            <th role="columnheader" scope="col">
              Who
            </th>
            <th role="columnheader" scope="col">
              From
            </th>
            <th role="columnheader" scope="col">
              What
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {changes.map((change) => (
            <Row key={change.id} change={change} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
