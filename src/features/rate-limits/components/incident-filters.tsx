// Filters of the incident history, kept in the URL so a filtered view can be shared.
import {
  FilterBar,
  FilterSelect,
  FilterTimeRange,
  type FilterOption,
} from '../../../components/ui/filter-bar';
import type { Rule } from '../../../shared/incident';
import type { IncidentFilters } from '../incident-url-state';
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

const PERIOD_OPTIONS: readonly FilterOption[] = [
  { value: 'MINUTE', label: 'Minute' },
  { value: 'HOUR', label: 'Hour' },
];

/** Period, rule and time range. */
export function IncidentFiltersBar({ filters, rules, onChange }: IncidentFiltersProps) {
  const ruleOptions: FilterOption[] = [
    ...(rules ?? []).map((rule) => ({ value: rule.id, label: ruleTitle(rule) })),
    { value: 'unmatched', label: 'Unknown limit' },
  ];
  return (
    <FilterBar label="Filter incidents" filters={filters} onChange={onChange}>
      {(set, bind) => (
        <>
          <FilterSelect label="Period" options={PERIOD_OPTIONS} {...bind('period')} />
          <FilterSelect label="Limit" options={ruleOptions} {...bind('rule')} />
          <FilterTimeRange
            type="datetime-local"
            since={toLocalInput(filters.since)}
            until={toLocalInput(filters.until)}
            onChange={(end, value) => set({ [end]: fromLocalInput(value) })}
          />
        </>
      )}
    </FilterBar>
  );
}
