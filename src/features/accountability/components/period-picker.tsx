// The report's period: a preset, or the first and last day of a custom one (UTC days).
import { FieldError, FormField } from '../../../components/ui/form-field';
import { PERIOD_PRESETS, PRESET_TEXT, type PeriodChoice, type PeriodPreset } from '../period';

export interface PeriodPickerProps {
  readonly choice: PeriodChoice;
  readonly onChange: (choice: PeriodChoice) => void;
  /** Why the custom days make no period, when they do not. */
  readonly error: string | null;
}

/** The period's controls. */
export function PeriodPicker({ choice, onChange, error }: PeriodPickerProps) {
  const custom = choice.preset === 'custom';
  return (
    <form
      className="accountability-period"
      aria-label="Period of the report"
      onSubmit={(event) => event.preventDefault()}
    >
      <FormField id="accountability-preset" label="Period">
        <select
          id="accountability-preset"
          className="input"
          value={choice.preset}
          onChange={(event) => onChange({ preset: event.target.value as PeriodPreset })}
        >
          {PERIOD_PRESETS.map((preset) => (
            <option key={preset} value={preset}>
              {PRESET_TEXT[preset]}
            </option>
          ))}
        </select>
      </FormField>
      {custom ? (
        <>
          <FormField id="accountability-from" label="First day (UTC)">
            <input
              id="accountability-from"
              className="input"
              type="date"
              value={choice.from ?? ''}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'accountability-period-error' : undefined}
              onChange={(event) => onChange({ ...choice, from: event.target.value })}
            />
          </FormField>
          <FormField id="accountability-to" label="Last day (UTC)">
            <input
              id="accountability-to"
              className="input"
              type="date"
              value={choice.to ?? ''}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'accountability-period-error' : undefined}
              onChange={(event) => onChange({ ...choice, to: event.target.value })}
            />
          </FormField>
        </>
      ) : null}
      <FieldError id="accountability-period-error" message={error} />
    </form>
  );
}
