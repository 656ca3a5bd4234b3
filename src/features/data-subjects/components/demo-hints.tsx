// Demo mode only: what the built-in mock's synthetic data can be found by, one click away.
import {
  DEMO_IDENTIFIERS,
  DEMO_LINKED_GROUP_ID,
  DEMO_PURPOSE_GUID,
  DEMO_UNKNOWN_IDENTIFIER,
} from '../../../shared/data-subject-demo';
import type { DataSubjectOperation } from '../../../shared/data-subject-operations';

export interface DemoHintsProps {
  operation: DataSubjectOperation;
  onUse: (name: string, value: string) => void;
}

/** Buttons that fill the form with the demo data's examples. */
export function DemoHints({ operation, onUse }: DemoHintsProps) {
  const identifier = operation.params.find((param) => param.format === 'identifier');
  const purpose = operation.params.find((param) => param.name === 'purposeGuid');
  const group = operation.params.find((param) => param.name === 'linkedIdentityGroupId');
  if (!identifier && !purpose && !group) return null;
  return (
    <aside className="demo-hints" aria-label="Demo data">
      <p>
        <strong>Demo data.</strong> The built-in mock knows synthetic people; try one:
      </p>
      <div className="demo-hint-buttons">
        {identifier
          ? [...DEMO_IDENTIFIERS, DEMO_UNKNOWN_IDENTIFIER].map((example) => (
              <button
                key={example}
                type="button"
                className="button button-small"
                onClick={() => onUse(identifier.name, example)}
              >
                {example}
                {example === DEMO_UNKNOWN_IDENTIFIER ? ' (unknown)' : ''}
              </button>
            ))
          : null}
        {purpose ? (
          <button
            type="button"
            className="button button-small"
            onClick={() => onUse(purpose.name, DEMO_PURPOSE_GUID)}
          >
            Example purpose (Marketing e-mails)
          </button>
        ) : null}
        {group ? (
          <button
            type="button"
            className="button button-small"
            onClick={() => onUse(group.name, DEMO_LINKED_GROUP_ID)}
          >
            Example group
          </button>
        ) : null}
      </div>
    </aside>
  );
}
