// The audit page's "Administrative changes" view: who changed what the console does, filtered by
// kind, connection, person and period (in the URL), newest first, with older pages on demand.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import {
  FilterBar,
  FilterInput,
  FilterSelect,
  FilterTimeRange,
  type FilterOption,
} from '../../../../components/ui/filter-bar';
import { ListRegion } from '../../../../components/ui/list-region';
import { ADMIN_CHANGE_KINDS } from '../../../../shared/admin-changes';
import { adminChangesQueryOptions } from '../../api/admin-changes-api';
import { changeExportFilters } from '../../api/audit-trail-api';
import { AuditExportButtons } from '../audit-export-buttons';
import { CHANGE_KIND_LABELS } from '../../change-text';
import type { ChangeFilters } from '../../changes-url-state';
import { AdminChangeTable } from './admin-change-table';
import { useConnectionOptions } from '../connection-name';
import { ListFooter } from '../list-footer';

const KIND_OPTIONS: readonly FilterOption[] = ADMIN_CHANGE_KINDS.map((kind) => ({
  value: kind,
  label: CHANGE_KIND_LABELS[kind],
}));

export interface AdminChangesViewProps {
  filters: ChangeFilters;
  onChange: (filters: ChangeFilters) => void;
}

/** The changes with their filters. */
export function AdminChangesView({ filters, onChange }: AdminChangesViewProps) {
  const changes = useInfiniteQuery(adminChangesQueryOptions(filters));
  const connectionOptions = useConnectionOptions(filters.connection);
  const rows = useMemo(
    () => changes.data?.pages.flatMap((page) => page.items) ?? [],
    [changes.data],
  );
  return (
    <section className="card audit-section" aria-labelledby="audit-changes-title">
      <div className="section-head">
        <h2 id="audit-changes-title">Administrative changes</h2>
        <FilterBar label="Filter the changes" filters={filters} onChange={onChange}>
          {(set, bind) => (
            <>
              <FilterTimeRange
                type="date"
                since={filters.since ?? ''}
                until={filters.until ?? ''}
                onChange={(end, value) => set({ [end]: value || undefined })}
              />
              <FilterSelect
                label="Connection"
                options={connectionOptions}
                {...bind('connection')}
              />
              <FilterInput
                label="Person"
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
              <FilterSelect label="Kind" options={KIND_OPTIONS} {...bind('kind')} />
            </>
          )}
        </FilterBar>
      </div>
      <p className="muted audit-search-help">
        Every change of what the console does, recorded in the same chain as the lookups: who made
        it (a token’s owner beside the token), when, from which address, and its state before and
        after. Secrets are never kept: a fingerprint tells two apart.
      </p>
      {rows.length > 0 ? (
        <AuditExportButtons
          what={{ changes: changeExportFilters(filters) }}
          label={
            Object.keys(filters).length > 0 ? 'the filtered changes' : 'every administrative change'
          }
        />
      ) : null}
      <ListRegion
        query={changes}
        loading="Loading the administrative changes…"
        errorTitle="The administrative changes could not be loaded"
        empty={
          rows.length === 0
            ? {
                title: 'No administrative changes recorded',
                text:
                  Object.keys(filters).length > 0
                    ? 'No change matches these filters.'
                    : 'Sign-ins, tokens, alert settings and other changes appear here.',
              }
            : undefined
        }
      >
        <>
          <AdminChangeTable changes={rows} label="Administrative changes" />
          <ListFooter query={changes} shown={rows.length} noun={['change', 'changes']} />
        </>
      </ListRegion>
    </section>
  );
}
