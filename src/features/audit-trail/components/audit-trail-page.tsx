// Page `/audit`, admins and auditors: every lookup of personal data, newest first, with filters in the
// URL; every lookup that asked for or showed one identifier, found by typing it; signed exports of
// either; when the trail's hash chain was last verified; and, as a second view (?view=changes),
// the administrative changes. The identifier is sent in a request body and kept in this page's
// state only; the trail holds it as a keyed hash.
import { useMemo, useState, type FormEvent } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { ActionButton } from '../../../components/ui/action-button';
import { ListRegion } from '../../../components/ui/list-region';
import { StatusPanel } from '../../../components/ui/status-panel';
import { PageHeader } from '../../../components/ui/page-header';
import { FieldError, FormField } from '../../../components/ui/form-field';
import { SubmitButton } from '../../../components/ui/submit-button';
import {
  canonicalIdentifier,
  type AuditMatch,
  type AuditRecord,
  type AuditSearchLinks,
} from '../../../shared/audit-trail';
import { IDENTIFIER_MAX_LENGTH } from '../../../shared/data-subject-operations';
import { auditTrailQueryOptions, exportFilters, useAuditSearch } from '../api/audit-trail-api';
import {
  parseAuditFilters,
  reversedPeriod,
  serialiseAuditFilters,
  type AuditFilters,
} from '../audit-url-state';
import { AuditExportButtons } from './audit-export-buttons';
import { AuditFiltersBar } from './audit-filters';
import { AuditIntegrityPanel } from './audit-integrity';
import { AuditTable } from './audit-table';
import { AdminChangesView } from './changes/admin-changes-view';
import {
  parseAuditView,
  parseChangeFilters,
  serialiseChangeFilters,
  type AuditView,
} from '../changes-url-state';
import { ListFooter } from './list-footer';
import './audit-trail.css';

const VIEWS: readonly AuditView[] = ['lookups', 'changes'];
const VIEW_LABELS: Readonly<Record<AuditView, string>> = {
  lookups: 'Lookups',
  changes: 'Administrative changes',
};

/** The two views as tabs (arrow keys move between them); the view is in the URL. */
function AuditViewTabs({
  view,
  onSelect,
}: {
  view: AuditView;
  onSelect: (view: AuditView) => void;
}) {
  const onKey = (event: React.KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const next = VIEWS[(VIEWS.indexOf(view) + 1) % VIEWS.length]!;
    onSelect(next);
    document.getElementById(`audit-tab-${next}`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Audit trail views" className="audit-tabs">
      {VIEWS.map((tab) => (
        <button
          key={tab}
          id={`audit-tab-${tab}`}
          type="button"
          role="tab"
          className="audit-tab"
          aria-selected={view === tab}
          aria-controls="audit-view-panel"
          tabIndex={view === tab ? 0 : -1}
          onClick={() => onSelect(tab)}
          onKeyDown={onKey}
        >
          {VIEW_LABELS[tab]}
        </button>
      ))}
    </div>
  );
}

/** The audit page. */
export function AuditTrailPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const view = parseAuditView(searchParams);
  const filters = useMemo(() => parseAuditFilters(searchParams), [searchParams]);
  const changeFilters = useMemo(() => parseChangeFilters(searchParams), [searchParams]);
  // Each view keeps its own filters; switching starts the other one unfiltered.
  const selectView = (next: AuditView) =>
    setSearchParams(next === 'changes' ? serialiseChangeFilters({}) : new URLSearchParams());
  const setFilters = (next: AuditFilters) => setSearchParams(serialiseAuditFilters(next));
  const reversed = reversedPeriod(filters);
  const trail = useInfiniteQuery({
    ...auditTrailQueryOptions(filters),
    enabled: view === 'lookups' && !reversed,
  });
  const rows = useMemo(() => trail.data?.pages.flatMap((page) => page.items) ?? [], [trail.data]);

  // The identifier searched for: this component's state only.
  const [identifier, setIdentifier] = useState('');
  const [searched, setSearched] = useState<{
    identifier: string;
    items: AuditRecord[];
    next: string | null;
    match: AuditMatch;
    links: AuditSearchLinks;
  } | null>(null);
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
      {
        onSuccess: (page) =>
          setSearched({
            identifier: text,
            items: page.items,
            next: page.nextCursor,
            match: page.match,
            links: page.links,
          }),
      },
    );
  };
  const searchOlder = () => {
    if (!searched?.next) return;
    search.mutate(
      { identifier: searched.identifier, cursor: searched.next },
      {
        onSuccess: (page) =>
          setSearched({
            ...searched,
            items: [...searched.items, ...page.items],
            next: page.nextCursor,
          }),
      },
    );
  };
  // An emptied box ends the search: answers about an identifier no longer shown (“No lookup asked
  // for this identifier…”) would read as if they were about nothing, or about the next one typed.
  const changeIdentifier = (value: string) => {
    setIdentifier(value);
    if (value.trim() === '') {
      setSearched(null);
      search.reset();
    }
    if (searchError) setSearchError(null);
  };
  const clearSearch = () => {
    setIdentifier('');
    setSearched(null);
    setSearchError(null);
    search.reset();
  };

  return (
    <section className="page page-stack audit-page" aria-labelledby="audit-title">
      <PageHeader titleId="audit-title" title="Audit trail">
        Every data-subject lookup, newest first: who made it, when, with which operation, what it
        asked, how many records came back and what came of it. Identifiers are kept only as keyed
        hashes, those asked for and every one an answer showed: find who saw a person’s data by
        typing their identifier below.
      </PageHeader>

      <AuditIntegrityPanel />

      <AuditViewTabs view={view} onSelect={selectView} />
      <div
        role="tabpanel"
        id="audit-view-panel"
        aria-labelledby={`audit-tab-${view}`}
        className="page-stack"
      >
        {view === 'changes' ? (
          <AdminChangesView
            filters={changeFilters}
            onChange={(next) => setSearchParams(serialiseChangeFilters(next))}
          />
        ) : (
          <>
            <section className="card audit-section" aria-labelledby="audit-search-title">
              <h2 id="audit-search-title">Who saw this person’s data?</h2>
              <p className="muted audit-search-help" id="audit-search-help">
                Type any key of the person: the identifier (e-mail or other), the platform’s
                data-subject id or a link token. Finds every lookup that asked for it and every
                listing page (“load more” pages included) whose answer showed the person, also under
                another key shown with it. E-mail addresses and ids match regardless of upper and
                lower case; other identifiers (customer ids, phone numbers) match exactly as typed.
                Spaces around them never matter.
              </p>
              <form
                className="audit-search"
                role="search"
                noValidate
                autoComplete="off"
                onSubmit={runSearch}
              >
                <FormField className="audit-search-field" id="audit-identifier" label="Identifier">
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
                    aria-describedby={
                      searchError ? 'audit-identifier-error audit-search-help' : 'audit-search-help'
                    }
                    onChange={(event) => changeIdentifier(event.target.value)}
                  />
                  <FieldError id="audit-identifier-error" message={searchError} />
                </FormField>
                <SubmitButton busy={search.isPending} busyLabel="Searching…">
                  Find lookups
                </SubmitButton>
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
                    {searchSummary(searched.items, searched.next !== null)}
                  </p>
                  <p className="muted audit-match-note">
                    Matched{' '}
                    <code className="audit-searched">
                      {canonicalIdentifier(searched.identifier)}
                    </code>{' '}
                    {searched.match.rule === 'email'
                      ? 'as an e-mail address, without regard to case'
                      : 'exactly as typed'}
                    {searched.match.forms > 1
                      ? `, and also as typed (${searched.identifier.trim()}) for records made before e-mail addresses were matched without regard to case`
                      : ''}
                    .
                  </p>
                  {searched.links.complete ? null : (
                    <StatusPanel
                      tone="warning"
                      headingLevel={3}
                      title={`The search stopped at ${searched.links.max} linked keys`}
                    >
                      <p>
                        Answers showed this person under more keys than a search follows. Lookups
                        that showed them only under a key beyond the bound are not listed: search
                        again by another of their keys (a data-subject id or link token from an
                        answer) to find those.
                      </p>
                    </StatusPanel>
                  )}
                  {searched.items.length > 0 ? (
                    <AuditExportButtons
                      what={{ identifier: searched.identifier }}
                      label="the search results"
                    />
                  ) : null}
                  {searched.items.length > 0 ? (
                    <AuditTable records={searched.items} label="Lookups of the identifier" />
                  ) : null}
                  {searched.next ? (
                    <ActionButton
                      className="button"
                      onClick={searchOlder}
                      unavailable={search.isPending}
                    >
                      Load older
                    </ActionButton>
                  ) : null}
                </div>
              ) : null}
            </section>

            <section className="card audit-section" aria-labelledby="audit-list-title">
              <div className="section-head">
                <h2 id="audit-list-title">All lookups</h2>
                <AuditFiltersBar filters={filters} onChange={setFilters} />
              </div>
              {rows.length > 0 ? (
                <AuditExportButtons
                  what={{ filters: exportFilters(filters) }}
                  label={Object.keys(filters).length > 0 ? 'the filtered trail' : 'the whole trail'}
                />
              ) : null}
              {reversed ? (
                <StatusPanel
                  role="alert"
                  tone="warning"
                  headingLevel={3}
                  title="The period ends before it starts"
                >
                  <p>
                    From {filters.since} is after To {filters.until}, so no lookup can match. Change
                    either date to see the lookups between them.
                  </p>
                </StatusPanel>
              ) : (
                <ListRegion
                  query={trail}
                  loading="Loading the audit trail…"
                  errorTitle="The audit trail could not be loaded"
                  empty={
                    rows.length === 0
                      ? Object.keys(filters).length > 0
                        ? {
                            title: 'No lookup matches these filters',
                            text: 'Change or clear a filter to see more of the trail.',
                          }
                        : {
                            title: 'No lookups recorded',
                            text: 'Lookups made on the Data subjects page appear here.',
                          }
                      : undefined
                  }
                >
                  <>
                    <AuditTable records={rows} label="Audit trail" />
                    <ListFooter query={trail} shown={rows.length} noun={['lookup', 'lookups']} />
                  </>
                </ListRegion>
              )}
            </section>
          </>
        )}
      </div>
    </section>
  );
}

/** "5 lookups showed or asked for this identifier: 2 asked for it, 3 listing pages showed it." */
function searchSummary(items: readonly AuditRecord[], more: boolean): string {
  if (items.length === 0) {
    return 'No lookup asked for this identifier, and no recorded answer showed it.';
  }
  const asked = items.filter(
    (item) => item.matchedBy === 'asked' || item.matchedBy === 'both',
  ).length;
  const shown = items.filter((item) => item.matchedBy === 'shown').length;
  const linked = items.filter((item) => item.matchedBy === 'linked').length;
  const count = `${items.length}${more ? '+' : ''}`;
  const throughLinks = linked > 0 ? `, ${linked} only under another key of the person` : '';
  return `${count} ${items.length === 1 ? 'lookup' : 'lookups'} found: ${asked} asked for this identifier, ${shown} showed it in a listing or another data subject’s answer${throughLinks}.`;
}
