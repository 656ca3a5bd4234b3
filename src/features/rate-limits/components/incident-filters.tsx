// Filters of the incident history, kept in the URL so a filtered view can be shared.
import {
  FilterBar,
  FilterInput,
  FilterSelect,
  useFilterSetter,
  type FilterOption,
} from '../../../components/ui/filter-bar';
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

const PERIOD_OPTIONS: readonly FilterOption[] = [
  { value: 'MINUTE', label: 'Minute' },
  { value: 'HOUR', label: 'Hour' },
];

/** Period, rule and time range. */
export function IncidentFiltersBar({ filters, rules, onChange }: IncidentFiltersProps) {
  const set = useFilterSetter(filters, onChange);
  const ruleOptions: FilterOption[] = [
    ...(rules ?? []).map((rule) => ({ value: rule.id, label: ruleTitle(rule) })),
    { value: 'unmatched', label: 'Unknown rule' },
  ];
  return (
    <FilterBar
      className="incident-filters"
      label="Filter incidents"
      active={hasIncidentFilters(filters)}
      onClear={() => onChange({})}
    >
      <FilterSelect
        label="Period"
        value={filters.period}
        options={PERIOD_OPTIONS}
        onChange={(period) => set({ period: period as IncidentFilters['period'] })}
      />
      <FilterSelect
        label="Limit"
        value={filters.rule}
        options={ruleOptions}
        onChange={(rule) => set({ rule })}
      />
      <FilterInput
        label="From"
        type="datetime-local"
        value={toLocalInput(filters.since)}
        onChange={(event) => set({ since: fromLocalInput(event.target.value) })}
      />
      <FilterInput
        label="To"
        type="datetime-local"
        value={toLocalInput(filters.until)}
        onChange={(event) => set({ until: fromLocalInput(event.target.value) })}
      />
    </FilterBar>
  );
}
