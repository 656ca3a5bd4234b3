// Filters of the audit trail, kept in the URL so a filtered view can be shared.
import {
  FilterBar,
  FilterInput,
  FilterSelect,
  FilterTimeRange,
  type FilterOption,
} from '../../../components/ui/filter-bar';
import { useLookupPurposePolicy } from '../../../lib/console-meta-query';
import { AUDIT_OUTCOMES } from '../../../shared/audit-trail';
import { PURPOSE_REFERENCE_MAX_LENGTH } from '../../../shared/lookup-purpose';
import { BUILT_IN_OPERATIONS, operationLabel } from '../../../shared/data-subject-operations';
import type { AuditFilters } from '../audit-url-state';
import { OUTCOME_TEXT } from '../format';
import { useConnectionOptions } from './connection-name';

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

/**
 * The purpose categories to filter by: the configured ones, and the one the URL names even when
 * it is configured no longer (older records keep the categories they were made under).
 */
function useCategoryOptions(chosen: string | undefined): readonly FilterOption[] {
  const categories = useLookupPurposePolicy().data?.categories ?? [];
  const all = chosen && !categories.includes(chosen) ? [...categories, chosen] : categories;
  return all.map((category) => ({ value: category, label: category }));
}

/** Time range, connection, user, a purpose's reference and category, operation and outcome. */
export function AuditFiltersBar({ filters, onChange }: AuditFiltersBarProps) {
  const categoryOptions = useCategoryOptions(filters.category);
  const connectionOptions = useConnectionOptions(filters.connection);
  return (
    <FilterBar label="Filter the audit trail" filters={filters} onChange={onChange}>
      {(set, bind) => (
        <>
          <FilterTimeRange
            type="date"
            since={filters.since ?? ''}
            until={filters.until ?? ''}
            onChange={(end, value) => set({ [end]: value || undefined })}
          />
          <FilterSelect label="Connection" options={connectionOptions} {...bind('connection')} />
          <FilterInput
            label="User"
            type="text"
            autoComplete="off"
            spellCheck={false}
            size={10}
            placeholder="Starts with…"
            value={filters.user ?? ''}
            onChange={(event) =>
              set({ user: event.target.value.trim().toLowerCase() || undefined })
            }
          />
          <FilterInput
            label="Reference"
            type="text"
            autoComplete="off"
            spellCheck={false}
            size={12}
            maxLength={PURPOSE_REFERENCE_MAX_LENGTH}
            placeholder="DSAR-2291"
            value={filters.reference ?? ''}
            onChange={(event) => set({ reference: event.target.value.trim() || undefined })}
          />
          <FilterSelect label="Category" options={categoryOptions} {...bind('category')} />
          <FilterSelect label="Operation" options={OPERATION_OPTIONS} {...bind('operation')} />
          <FilterSelect label="Outcome" options={OUTCOME_OPTIONS} {...bind('outcome')} />
        </>
      )}
    </FilterBar>
  );
}
