// The filter bar above a list (the audit trail, the incidents): labelled fields side by side, an
// "Any" choice on every select, and "Clear filters" while any filter is set. Each list keeps its
// filters in the URL; this piece only lays them out and turns edits into a new filter object.
import type { FormEvent, InputHTMLAttributes, ReactNode } from 'react';

/** A filter object's setter: merges a change and drops the emptied filters. */
export type SetFilters<F> = (change: Partial<F>) => void;

/** The value and change handler of a select bound to one filter, to spread on FilterSelect. */
export type BindFilter<F> = (name: keyof F & string) => {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
};

export interface FilterBarProps<F extends object> {
  /** Accessible name of the search region, e.g. "Filter incidents". */
  label: string;
  /** The filters now applied; any truthy value counts as set. */
  filters: F;
  onChange: (filters: F) => void;
  /**
   * The fields, given a setter that merges a change into `filters` and a binder of a select to
   * one filter whose values are the filter's own.
   */
  children: (set: SetFilters<F>, bind: BindFilter<F>) => ReactNode;
}

const ignoreSubmit = (event: FormEvent) => event.preventDefault();

/** A search form of filter fields; every field applies as it changes, so Enter does nothing. */
export function FilterBar<F extends object>({
  label,
  filters,
  onChange,
  children,
}: FilterBarProps<F>) {
  // Emptied filters are dropped, so the URL never carries `?user=` with nothing after it.
  const set: SetFilters<F> = (change) => {
    const next = { ...filters, ...change };
    for (const name of Object.keys(next) as Array<keyof F>) {
      if (!next[name]) delete next[name];
    }
    onChange(next);
  };
  const bind: BindFilter<F> = (name) => ({
    value: filters[name] as string | undefined,
    onChange: (value) => set({ [name]: value } as Partial<F>),
  });
  const active = Object.values(filters).some(Boolean);
  return (
    <form className="filter-bar" role="search" aria-label={label} onSubmit={ignoreSubmit}>
      {children(set, bind)}
      {active ? (
        <button
          type="button"
          className="button button-small filter-clear"
          onClick={() => onChange({} as F)}
        >
          Clear filters
        </button>
      ) : null}
    </form>
  );
}

export interface FilterInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'className'> {
  label: string;
}

/** A labelled text, date or time field of a filter bar. */
export function FilterInput({ label, ...input }: FilterInputProps) {
  return (
    <label>
      <span>{label}</span>
      <input className="input" {...input} />
    </label>
  );
}

export interface FilterTimeRangeProps {
  /** `date` for whole days, `datetime-local` for moments in this browser's time zone. */
  type: 'date' | 'datetime-local';
  /** The inputs' values ('' when unset). */
  since: string;
  until: string;
  /** Called with the end that changed and the input's new value ('' when emptied). */
  onChange: (end: 'since' | 'until', value: string) => void;
}

/** The "From" and "To" fields of a time range. */
export function FilterTimeRange({ type, since, until, onChange }: FilterTimeRangeProps) {
  return (
    <>
      <FilterInput
        label="From"
        type={type}
        value={since}
        onChange={(event) => onChange('since', event.target.value)}
      />
      <FilterInput
        label="To"
        type={type}
        value={until}
        onChange={(event) => onChange('until', event.target.value)}
      />
    </>
  );
}

export interface FilterOption {
  value: string;
  label: string;
}

export interface FilterSelectProps {
  label: string;
  /** The chosen value; undefined is "Any". */
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  options: readonly FilterOption[];
}

/** A labelled select of a filter bar whose first choice, "Any", leaves the filter unset. */
export function FilterSelect({ label, value, onChange, options }: FilterSelectProps) {
  return (
    <label>
      <span>{label}</span>
      <select
        className="input"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || undefined)}
      >
        <option value="">Any</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
