// The filter bar above a list (the audit trail, the incidents): labelled fields side by side, an
// "Any" choice on every select, and "Clear filters" while any filter is set. Each list keeps its
// filters in the URL; this piece only lays them out and turns edits into a new filter object.
import type { FormEvent, InputHTMLAttributes, ReactNode } from 'react';

/**
 * A setter that merges `change` into `filters` and drops the emptied ones, so the URL never
 * carries `?user=` or `?since=` with nothing after it.
 */
export function useFilterSetter<F extends object>(
  filters: F,
  onChange: (filters: F) => void,
): (change: Partial<F>) => void {
  return (change) => {
    const next = { ...filters, ...change };
    for (const name of Object.keys(next) as Array<keyof F>) {
      if (!next[name]) delete next[name];
    }
    onChange(next);
  };
}

export interface FilterBarProps {
  /** Accessible name of the search region, e.g. "Filter incidents". */
  label: string;
  /** A class of the list's own, next to the shared `filter-bar`. */
  className?: string;
  /** True while any filter is set: "Clear filters" shows. */
  active: boolean;
  onClear: () => void;
  children: ReactNode;
}

const ignoreSubmit = (event: FormEvent) => event.preventDefault();

/** A search form of filter fields; every field applies as it changes, so Enter does nothing. */
export function FilterBar({ label, className, active, onClear, children }: FilterBarProps) {
  return (
    <form
      className={className ? `filter-bar ${className}` : 'filter-bar'}
      role="search"
      aria-label={label}
      onSubmit={ignoreSubmit}
    >
      {children}
      {active ? (
        <button type="button" className="button button-small filter-clear" onClick={onClear}>
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
