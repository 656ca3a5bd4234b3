// Choosing an operation: the catalog grouped as the migration guide groups it, each with what it
// returns and the legacy calls it replaces in plain words, and the technical side (request,
// documented operation id, why this row maps to it, where each parameter travels, module limit)
// behind a "Details" toggle.
import { FormField } from '../../../components/ui/form-field';
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
  return operation.row === null ? operation.title : `${operation.row}. ${operation.title}`;
}

/** The operation select and the chosen operation's details. */
export function OperationPicker({ operations, selected, onSelect }: OperationPickerProps) {
  return (
    <FormField className="operation-picker" id="operation-select" label="Operation">
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
    </FormField>
  );
}

/** Where the console's knowledge of the operation comes from, in words. */
function PathBadge({ operation }: { operation: DataSubjectOperation }) {
  if (operation.overridden) {
    return (
      <span className="path-badge" data-kind="configured">
        Set by your administrator
      </span>
    );
  }
  return operation.documented ? (
    <span className="path-badge" data-kind="documented">
      Documented
    </span>
  ) : (
    <span className="path-badge" data-kind="assumed">
      Not in the platform’s documentation
    </span>
  );
}

const WIRE = { header: 'a request header', path: 'the address', query: 'the query' } as const;

/** The technical side of an operation, folded away: address, documentation, parameters, limits. */
export function OperationTechnicalDetails({ operation }: { operation: DataSubjectOperation }) {
  const rule = MODULE_RULES.find((candidate) => candidate.id === operation.moduleRule);
  return (
    <details className="operation-technical">
      <summary>Details</summary>
      <dl className="operation-facts">
        <div>
          <dt>Request</dt>
          <dd>
            <code>
              {operation.method} {operation.path}
            </code>{' '}
            <PathBadge operation={operation} />
          </dd>
        </div>
        {operation.operationId ? (
          <div>
            <dt>Documented as</dt>
            <dd>
              <code>{operation.operationId}</code>
              {operation.source ? ` in ${operation.source}` : ''}
            </dd>
          </div>
        ) : null}
        {operation.decision ? (
          <div>
            <dt>Why this operation</dt>
            <dd>{operation.decision}</dd>
          </div>
        ) : null}
        {operation.params.length > 0 ? (
          <div>
            <dt>Parameters</dt>
            <dd>
              <ul className="plain-list">
                {operation.params.map((param) => (
                  <li key={param.name}>
                    {param.label}: in {WIRE[param.location]} as <code>{param.wireName}</code>
                  </li>
                ))}
                {operation.continuation ? (
                  <li>
                    Next page: in {WIRE[operation.continuation.location]} as{' '}
                    <code>{operation.continuation.wireName}</code>
                  </li>
                ) : null}
              </ul>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Module limit</dt>
          <dd>
            {rule
              ? `${rule.area}: ${describeLimits(rule)}${rule.kind === 'soft' ? ' (a soft limit: the platform slows down beyond it)' : ''}`
              : 'None published for this operation; the account limits apply'}
          </dd>
        </div>
      </dl>
    </details>
  );
}

/** On a legacy call's own form: that it is legacy, and which v4 operation replaces it. */
function LegacyNote({
  operation,
  operations,
}: {
  operation: DataSubjectOperation;
  operations: readonly DataSubjectOperation[];
}) {
  const replacements = operations.filter(
    (candidate) =>
      candidate.version === 'v4' &&
      candidate.legacy.some((equivalent) => equivalent.operation === operation.id),
  );
  return (
    <p className="operation-legacy-note" role="note">
      <strong>Legacy {operation.version} call</strong>
      {replacements.length > 0
        ? `, replaced by ${replacements
            .map((v4) => `v4 #${v4.row ?? '?'} (${v4.title})`)
            .join(' and ')}.`
        : '.'}{' '}
      Use it to compare with the v4 answer while migrating.
    </p>
  );
}

function OperationDetails({
  operation,
  operations,
}: {
  operation: DataSubjectOperation;
  operations: readonly DataSubjectOperation[];
}) {
  return (
    <div className="operation-details" aria-live="polite">
      <p className="operation-returns">{operation.returns}</p>
      {operation.overridden ? (
        <p className="muted operation-note">
          Your administrator changed where the console sends this operation.
        </p>
      ) : null}
      {operation.version === 'v4' && operation.row !== null ? (
        <p className="muted operation-note">
          v4 #{operation.row}: row {operation.row} of the platform’s v4 migration guide, which
          numbers the ten v4 operations 1–10.
        </p>
      ) : null}
      {operation.version !== 'v4' ? (
        <LegacyNote operation={operation} operations={operations} />
      ) : null}
      {operation.version === 'v4' ? (
        <p className="muted operation-note">
          Replaces:{' '}
          {operation.legacy.length > 0
            ? operation.legacy
                .map(
                  (equivalent) =>
                    operations.find((op) => op.id === equivalent.operation)?.title ??
                    equivalent.operation,
                )
                .join(', ')
            : (operation.legacyNote ?? 'nothing')}
        </p>
      ) : null}
      {operation.note ? <p className="muted operation-note">{operation.note}</p> : null}
      <OperationTechnicalDetails operation={operation} />
    </div>
  );
}
