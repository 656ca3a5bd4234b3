// One parameter of an operation as a form field, built from the catalog: the right input for its
// format, a plain-words hint, and its problem inline (where it travels is in the operation's
// details). Identifiers are never offered to
// the browser's autofill, which would keep them.
import type { OperationParam } from '../../../shared/data-subject-operations';
import { fieldLabel } from '../answer-model';

/**
 * An enum value in words: a documented sort (`lastUpdatedDate,desc`) as "Last updated date,
 * latest first" (every sortable field is a date), a status as "OPT OUT".
 */
function enumValueLabel(value: string): string {
  const sort = /^(\w+),(asc|desc)$/.exec(value);
  if (sort) return `${fieldLabel(sort[1]!)}, ${sort[2] === 'asc' ? 'earliest' : 'latest'} first`;
  return value.replace(/_/g, ' ');
}

export interface ParamFieldProps {
  param: OperationParam;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** Shown under the field; marks it invalid. */
  error?: string | undefined;
  /** Makes ids unique when the same parameter appears twice on the page. */
  idPrefix?: string;
  /** Whether a date is the end of a range (a whole day, to its last millisecond, UTC). */
  rangeEnd?: boolean;
}

/** A labelled input for `param`. */
export function ParamField({
  param,
  value,
  onChange,
  onBlur,
  error,
  idPrefix = 'param',
  rangeEnd,
}: ParamFieldProps) {
  const id = `${idPrefix}-${param.name}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const common = {
    id,
    className: 'input',
    value,
    onBlur,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${errorId} ${hintId}` : hintId,
    required: param.required,
  } as const;
  let input;
  switch (param.format) {
    case 'enum':
      input = (
        <select {...common} onChange={(event) => onChange(event.target.value)}>
          <option value="">
            {param.required
              ? 'Choose…'
              : param.default
                ? `Platform default (${enumValueLabel(param.default)})`
                : param.name === 'sort'
                  ? 'Platform default'
                  : 'Any'}
          </option>
          {(param.values ?? []).map((option) => (
            <option key={option} value={option}>
              {enumValueLabel(option)}
            </option>
          ))}
        </select>
      );
      break;
    case 'boolean':
      // Sent only when ticked: unticked leaves the platform's default (`default`) in force.
      return (
        <div className="param-field param-flag" data-invalid={error ? true : undefined}>
          <label className="flag-label" htmlFor={id}>
            <input
              id={id}
              type="checkbox"
              checked={value === 'true'}
              onChange={(event) => onChange(event.target.checked ? 'true' : '')}
              onBlur={onBlur}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${errorId} ${hintId}` : hintId}
            />{' '}
            {param.label}
          </label>
          <FieldNotes param={param} error={error} hintId={hintId} errorId={errorId} />
        </div>
      );
    case 'date-time':
      input = <input {...common} type="date" onChange={(event) => onChange(event.target.value)} />;
      break;
    case 'integer':
      // A text field with a numeric keypad, not type="number": a number field hands the page ""
      // for "abc" and keeps its last value, so the problem shown would be about "-1" typed
      // before. Here what is typed is what is checked (checkLookupParams names the range).
      input = (
        <input
          {...common}
          type="text"
          inputMode="numeric"
          spellCheck={false}
          onChange={(event) => onChange(event.target.value)}
        />
      );
      break;
    default:
      input = (
        <input
          {...common}
          type="text"
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="off"
          placeholder={
            param.format === 'uuid'
              ? '00000000-0000-0000-0000-000000000000'
              : param.format === 'identifier'
                ? 'e.g. someone@example.com'
                : undefined
          }
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
  return (
    <div className="param-field" data-invalid={error ? true : undefined}>
      <label className="field-label" htmlFor={id}>
        {param.label}
        {param.required ? null : <span className="muted"> (optional)</span>}
        {param.format === 'date-time' ? (
          <span className="muted">{rangeEnd ? ' (UTC, whole day)' : ' (UTC)'}</span>
        ) : null}
      </label>
      {input}
      <FieldNotes param={param} error={error} hintId={hintId} errorId={errorId} />
    </div>
  );
}

/** The hint under a field, and its error when there is one (both referenced by aria-describedby). */
function FieldNotes({
  param,
  error,
  hintId,
  errorId,
}: {
  param: { label: string; description: string };
  error: string | undefined;
  hintId: string;
  errorId: string;
}) {
  return (
    <>
      <p className="field-hint muted" id={hintId}>
        {param.description}.
      </p>
      {error ? (
        <p className="field-error" id={errorId}>
          {param.label} {error}.
        </p>
      ) : null}
    </>
  );
}
