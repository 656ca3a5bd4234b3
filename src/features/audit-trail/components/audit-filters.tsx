// Filters of the audit trail, kept in the URL so a filtered view can be shared.
import {
  FilterBar,
  FilterInput,
  FilterSelect,
  useFilterSetter,
  type FilterOption,
} from '../../../components/ui/filter-bar';
import { AUDIT_OUTCOMES } from '../../../shared/audit-trail';
import { BUILT_IN_OPERATIONS, operationLabel } from '../../../shared/data-subject-operations';
import { hasAuditFilters, type AuditFilters } from '../audit-url-state';
import { OUTCOME_TEXT } from '../format';

export interface AuditFiltersBarProps {
  filters: AuditFilters;
  onChange: (filters: AuditFilters) => void;
}

const OPERATION_OPTIONS: readonly FilterOption[] = [
  ...BUILT_IN_OPERATIONS.map((operation) => ({
    value: operation.id,
    label: operationLabel(operation),
  })),
  { value: 'unknown', label: 'Unknown operation' },
];

const OUTCOME_OPTIONS: readonly FilterOption[] = AUDIT_OUTCOMES.map((outcome) => ({
  value: outcome,
  label: OUTCOME_TEXT[outcome].label,
}));

/** Time range, user, operation and outcome. */
export function AuditFiltersBar({ filters, onChange }: AuditFiltersBarProps) {
  const set = useFilterSetter(filters, onChange);
  return (
    <FilterBar
      className="audit-filters"
      label="Filter the audit trail"
      active={hasAuditFilters(filters)}
      onClear={() => onChange({})}
    >
      <FilterInput
        label="From"
        type="date"
        value={filters.since ?? ''}
        onChange={(event) => set({ since: event.target.value || undefined })}
      />
      <FilterInput
        label="To"
        type="date"
        value={filters.until ?? ''}
        onChange={(event) => set({ until: event.target.value || undefined })}
      />
      <FilterInput
        label="User"
        type="text"
        autoComplete="off"
        spellCheck={false}
        size={10}
        placeholder="Starts with…"
        value={filters.user ?? ''}
        onChange={(event) => set({ user: event.target.value.trim().toLowerCase() || undefined })}
      />
      <FilterSelect
        label="Operation"
        value={filters.operation}
        options={OPERATION_OPTIONS}
        onChange={(operation) => set({ operation })}
      />
      <FilterSelect
        label="Outcome"
        value={filters.outcome}
        options={OUTCOME_OPTIONS}
        onChange={(outcome) => set({ outcome: outcome as AuditFilters['outcome'] })}
      />
    </FilterBar>
  );
}
