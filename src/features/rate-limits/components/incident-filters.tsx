// Filters of the incident history, kept in the URL so a filtered view can be shared.
import type { Rule } from '../../../shared/incident';
import { hasIncidentFilters, type IncidentFilters } from '../incident-url-state';
import { ruleTitle } from '../format';

export interface IncidentFiltersProps {
  filters: IncidentFilters;
  rules: readonly Rule[] | undefined;
  onChange: (filters: IncidentFilters) => void;
}

/** ISO time → the value of a datetime-local input, in this browser's time zone. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A datetime-local value (local time) → ISO time, or undefined when empty or invalid. */
function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** Period, rule and time range. */
export function IncidentFiltersBar({ filters, rules, onChange }: IncidentFiltersProps) {
  const set = (change: Partial<IncidentFilters>) => {
    const next: IncidentFilters = { ...filters, ...change };
    for (const name of Object.keys(next) as Array<keyof IncidentFilters>) {
      if (!next[name]) delete next[name];
    }
    onChange(next);
  };
  return (
    <form
      className="filter-bar incident-filters"
      role="search"
      aria-label="Filter incidents"
      onSubmit={(e) => e.preventDefault()}
    >
      <label>
        <span>Period</span>
        <select
          className="input"
          value={filters.period ?? ''}
          onChange={(event) =>
            set({ period: (event.target.value || undefined) as IncidentFilters['period'] })
          }
        >
          <option value="">Any</option>
          <option value="MINUTE">Minute</option>
          <option value="HOUR">Hour</option>
        </select>
      </label>
      <label>
        <span>Limit</span>
        <select
          className="input"
          value={filters.rule ?? ''}
          onChange={(event) => set({ rule: event.target.value || undefined })}
        >
          <option value="">Any</option>
          {(rules ?? []).map((rule) => (
            <option key={rule.id} value={rule.id}>
              {ruleTitle(rule)}
            </option>
          ))}
          <option value="unmatched">Unknown rule</option>
        </select>
      </label>
      <label>
        <span>From</span>
        <input
          className="input"
          type="datetime-local"
          value={toLocalInput(filters.since)}
          onChange={(event) => set({ since: fromLocalInput(event.target.value) })}
        />
      </label>
      <label>
        <span>To</span>
        <input
          className="input"
          type="datetime-local"
          value={toLocalInput(filters.until)}
          onChange={(event) => set({ until: fromLocalInput(event.target.value) })}
        />
      </label>
      {hasIncidentFilters(filters) ? (
        <button type="button" className="button button-link" onClick={() => onChange({})}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
