// Filters of the audit trail, kept in the URL so a filtered view can be shared.
import { AUDIT_OUTCOMES } from '../../../shared/audit-trail';
import { BUILT_IN_OPERATIONS, operationLabel } from '../../../shared/data-subject-operations';
import { hasAuditFilters, type AuditFilters } from '../audit-url-state';
import { OUTCOME_TEXT } from '../format';

export interface AuditFiltersBarProps {
  filters: AuditFilters;
  onChange: (filters: AuditFilters) => void;
}

/** Time range, user, operation and outcome. */
export function AuditFiltersBar({ filters, onChange }: AuditFiltersBarProps) {
  const set = (change: Partial<AuditFilters>) => {
    const next: AuditFilters = { ...filters, ...change };
    for (const name of Object.keys(next) as Array<keyof AuditFilters>) {
      if (!next[name]) delete next[name];
    }
    onChange(next);
  };
  return (
    <form
      className="filter-bar audit-filters"
      role="search"
      aria-label="Filter the audit trail"
      onSubmit={(event) => event.preventDefault()}
    >
      <label>
        <span>From</span>
        <input
          className="input"
          type="date"
          value={filters.since ?? ''}
          onChange={(event) => set({ since: event.target.value || undefined })}
        />
      </label>
      <label>
        <span>To</span>
        <input
          className="input"
          type="date"
          value={filters.until ?? ''}
          onChange={(event) => set({ until: event.target.value || undefined })}
        />
      </label>
      <label>
        <span>User</span>
        <input
          className="input"
          type="text"
          autoComplete="off"
          spellCheck={false}
          size={10}
          placeholder="Starts with…"
          value={filters.user ?? ''}
          onChange={(event) => set({ user: event.target.value.trim().toLowerCase() || undefined })}
        />
      </label>
      <label>
        <span>Operation</span>
        <select
          className="input"
          value={filters.operation ?? ''}
          onChange={(event) => set({ operation: event.target.value || undefined })}
        >
          <option value="">Any</option>
          {BUILT_IN_OPERATIONS.map((operation) => (
            <option key={operation.id} value={operation.id}>
              {operationLabel(operation)}
            </option>
          ))}
          <option value="unknown">Unknown operation</option>
        </select>
      </label>
      <label>
        <span>Outcome</span>
        <select
          className="input"
          value={filters.outcome ?? ''}
          onChange={(event) =>
            set({ outcome: (event.target.value || undefined) as AuditFilters['outcome'] })
          }
        >
          <option value="">Any</option>
          {AUDIT_OUTCOMES.map((outcome) => (
            <option key={outcome} value={outcome}>
              {OUTCOME_TEXT[outcome].label}
            </option>
          ))}
        </select>
      </label>
      {hasAuditFilters(filters) ? (
        <button type="button" className="button button-small" onClick={() => onChange({})}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
