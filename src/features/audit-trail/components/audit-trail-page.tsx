// Page `/audit` (PRODUCT.md §6), admins only: every lookup of personal data, newest first, with
// filters in the URL; and every lookup of one identifier, found by typing it. The identifier is
// sent in a request body and kept in this page's state only; the trail holds it as a keyed hash.
import { useMemo, useState, type FormEvent } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { StatusPanel } from '../../../components/ui/status-panel';
import type { AuditRecord } from '../../../shared/audit-trail';
import { IDENTIFIER_MAX_LENGTH } from '../../../shared/data-subject-operations';
import { auditTrailQueryOptions, useAuditSearch } from '../api/audit-trail-api';
import { parseAuditFilters, serialiseAuditFilters, type AuditFilters } from '../audit-url-state';
import { AuditFiltersBar } from './audit-filters';
import { AuditTable } from './audit-table';
import './audit-trail.css';

/** The audit page. */
export function AuditTrailPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => parseAuditFilters(searchParams), [searchParams]);
  const setFilters = (next: AuditFilters) => setSearchParams(serialiseAuditFilters(next));
  const trail = useInfiniteQuery(auditTrailQueryOptions(filters));
  const rows = useMemo(() => trail.data?.pages.flatMap((page) => page.items) ?? [], [trail.data]);

  // The identifier searched for: this component's state only.
  const [identifier, setIdentifier] = useState('');
  const [searched, setSearched] = useState<{ items: AuditRecord[]; next: string | null } | null>(
    null,
  );
  const [searchError, setSearchError] = useState<string | null>(null);
  const search = useAuditSearch();

  const runSearch = (event: FormEvent) => {
    event.preventDefault();
    const text = identifier.trim();
    if (!text) {
      setSearchError('Type the identifier to look for.');
      return;
    }
    setSearchError(null);
    search.mutate(
      { identifier: text },
      { onSuccess: (page) => setSearched({ items: page.items, next: page.nextCursor }) },
    );
  };
  const searchOlder = () => {
    if (!searched?.next) return;
    search.mutate(
      { identifier: identifier.trim(), cursor: searched.next },
      {
        onSuccess: (page) =>
          setSearched({ items: [...searched.items, ...page.items], next: page.nextCursor }),
      },
    );
  };
  const clearSearch = () => {
    setIdentifier('');
    setSearched(null);
    setSearchError(null);
    search.reset();
  };

  return (
    <section className="page audit-page" aria-labelledby="audit-title">
      <header className="page-header">
        <div>
          <h1 id="audit-title">Audit trail</h1>
          <p className="muted">
            Every data-subject lookup, newest first: who made it, when, with which operation, and
            what came of it. Identifiers are kept only as a keyed hash: find the lookups of one by
            typing it below.
          </p>
        </div>
      </header>

      <section className="card audit-section" aria-labelledby="audit-search-title">
        <h2 id="audit-search-title">Find the lookups of an identifier</h2>
        <form
          className="audit-search"
          role="search"
          noValidate
          autoComplete="off"
          onSubmit={runSearch}
        >
          <div className="audit-search-field">
            <label className="field-label" htmlFor="audit-identifier">
              Identifier
            </label>
            <input
              id="audit-identifier"
              className="input"
              type="text"
              autoComplete="off"
              spellCheck={false}
              autoCapitalize="off"
              maxLength={IDENTIFIER_MAX_LENGTH}
              placeholder="e.g. someone@example.com"
              value={identifier}
              aria-invalid={searchError ? true : undefined}
              aria-describedby={searchError ? 'audit-identifier-error' : undefined}
              onChange={(event) => setIdentifier(event.target.value)}
            />
            {searchError ? (
              <p className="field-error" id="audit-identifier-error">
                {searchError}
              </p>
            ) : null}
          </div>
          <button type="submit" className="button button-primary" disabled={search.isPending}>
            {search.isPending ? 'Searching…' : 'Find lookups'}
          </button>
          {searched || search.isError ? (
            <button type="button" className="button" onClick={clearSearch}>
              Clear search
            </button>
          ) : null}
        </form>
        {search.isError ? (
          <StatusPanel role="alert" tone="danger" headingLevel={3} title="The search failed">
            <p>{search.error.message}</p>
          </StatusPanel>
        ) : searched ? (
          <div className="audit-search-results">
            <p role="status" className="audit-result-count">
              {searched.items.length === 0
                ? 'No lookups of this identifier are recorded.'
                : `${searched.items.length}${searched.next ? '+' : ''} ${searched.items.length === 1 ? 'lookup' : 'lookups'} of this identifier.`}
            </p>
            {searched.items.length > 0 ? (
              <AuditTable records={searched.items} label="Lookups of the identifier" />
            ) : null}
            {searched.next ? (
              <button
                type="button"
                className="button"
                onClick={searchOlder}
                disabled={search.isPending}
              >
                Load older
              </button>
            ) : null}
          </div>
        ) : null}
      </section>

      <section className="card audit-section" aria-labelledby="audit-list-title">
        <div className="section-head">
          <h2 id="audit-list-title">All lookups</h2>
          <AuditFiltersBar filters={filters} onChange={setFilters} />
        </div>
        {trail.isPending ? (
          <p className="muted" role="status">
            Loading the audit trail…
          </p>
        ) : trail.isError ? (
          <StatusPanel
            role="alert"
            tone="danger"
            headingLevel={3}
            title="The audit trail could not be loaded"
            actions={
              <button type="button" className="button" onClick={() => void trail.refetch()}>
                Try again
              </button>
            }
          >
            <p>{trail.error.message}</p>
          </StatusPanel>
        ) : rows.length === 0 ? (
          <StatusPanel headingLevel={3} title="No lookups recorded">
            <p>
              {Object.keys(filters).length > 0
                ? 'No lookup matches these filters.'
                : 'Lookups made on the Data subjects page appear here.'}
            </p>
          </StatusPanel>
        ) : (
          <>
            <AuditTable records={rows} label="Audit trail" />
            <div className="audit-more">
              {trail.hasNextPage ? (
                <button
                  type="button"
                  className="button"
                  onClick={() => void trail.fetchNextPage()}
                  disabled={trail.isFetchingNextPage}
                >
                  {trail.isFetchingNextPage ? 'Loading…' : 'Load older'}
                </button>
              ) : null}
              <span className="muted">
                {rows.length} {rows.length === 1 ? 'lookup' : 'lookups'} shown
                {trail.hasNextPage ? '' : ', the oldest included'}.
              </span>
              <button
                type="button"
                className="button button-small"
                onClick={() => void trail.refetch()}
                disabled={trail.isFetching}
              >
                Refresh
              </button>
            </div>
          </>
        )}
      </section>
    </section>
  );
}
