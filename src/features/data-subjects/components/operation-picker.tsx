// Choosing an operation: the catalog grouped as the migration guide groups it, each with what it
// returns, its path and whether that path is documented or assumed, its module limit and the
// legacy calls it replaces.
import type { DataSubjectOperation } from '../../../shared/data-subject-operations';
import { describeLimits, MODULE_RULES } from '../../../shared/rate-limits';

export interface OperationPickerProps {
  operations: readonly DataSubjectOperation[];
  selected: DataSubjectOperation;
  onSelect: (id: string) => void;
}

/** v4 groups in catalog order, then the legacy operations. */
function groupsOf(operations: readonly DataSubjectOperation[]) {
  const groups: Array<{ name: string; operations: DataSubjectOperation[] }> = [];
  for (const operation of operations) {
    const name = operation.version === 'v4' ? operation.group : 'Legacy (v1, v2, v3)';
    let group = groups.find((each) => each.name === name);
    if (!group) groups.push((group = { name, operations: [] }));
    group.operations.push(operation);
  }
  return groups;
}

function optionText(operation: DataSubjectOperation): string {
  const prefix = operation.row === null ? '' : `${operation.row}. `;
  return `${prefix}${operation.title}${operation.documented || operation.overridden ? '' : ' (assumed path)'}`;
}

/** The operation select and the chosen operation's details. */
export function OperationPicker({ operations, selected, onSelect }: OperationPickerProps) {
  return (
    <div className="operation-picker">
      <label className="field-label" htmlFor="operation-select">
        Operation
      </label>
      <select
        id="operation-select"
        className="input operation-select"
        value={selected.id}
        onChange={(event) => onSelect(event.target.value)}
      >
        {groupsOf(operations).map((group) => (
          <optgroup key={group.name} label={group.name}>
            {group.operations.map((operation) => (
              <option key={operation.id} value={operation.id}>
                {optionText(operation)}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <OperationDetails operation={selected} operations={operations} />
    </div>
  );
}

/** Where the path comes from, in words a reviewer can act on. */
export function PathBadge({ operation }: { operation: DataSubjectOperation }) {
  if (operation.overridden) {
    return (
      <span
        className="path-badge"
        data-kind="configured"
        title="Set in DATA_SUBJECT_OPERATIONS_FILE"
      >
        Configured path
      </span>
    );
  }
  return operation.documented ? (
    <span className="path-badge" data-kind="documented">
      Documented path
    </span>
  ) : (
    <span className="path-badge" data-kind="assumed">
      Assumed path
    </span>
  );
}

function OperationDetails({
  operation,
  operations,
}: {
  operation: DataSubjectOperation;
  operations: readonly DataSubjectOperation[];
}) {
  const rule = MODULE_RULES.find((candidate) => candidate.id === operation.moduleRule);
  return (
    <div className="operation-details" aria-live="polite">
      <p className="operation-returns">{operation.returns}</p>
      <p className="operation-path">
        <code>
          {operation.method} {operation.path}
        </code>{' '}
        <PathBadge operation={operation} />
      </p>
      {!operation.documented && !operation.overridden ? (
        <p className="muted operation-note">
          The platform’s documentation gives no path for this operation; the console assumes this
          one. An operator can set the real one in <code>DATA_SUBJECT_OPERATIONS_FILE</code>.
        </p>
      ) : null}
      <dl className="operation-facts">
        <div>
          <dt>Module limit</dt>
          <dd>
            {rule
              ? `${rule.area}: ${describeLimits(rule)}${rule.kind === 'soft' ? ' (a soft limit: the platform slows down beyond it)' : ''}`
              : 'None documented for this path; the account limits apply'}
          </dd>
        </div>
        {operation.version === 'v4' ? (
          <div>
            <dt>Replaces</dt>
            <dd>
              {operation.legacy.length > 0 ? (
                <ul className="plain-list">
                  {operation.legacy.map((equivalent) => {
                    const legacy = operations.find((op) => op.id === equivalent.operation);
                    return (
                      <li key={equivalent.operation}>
                        {legacy?.title ?? equivalent.operation}{' '}
                        <code className="muted">{legacy?.path}</code>
                      </li>
                    );
                  })}
                </ul>
              ) : (
                (operation.legacyNote ?? 'Not applicable')
              )}
            </dd>
          </div>
        ) : null}
      </dl>
      {operation.note ? <p className="muted operation-note">{operation.note}</p> : null}
    </div>
  );
}
