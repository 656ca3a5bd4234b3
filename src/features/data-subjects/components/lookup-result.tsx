// A lookup's answer: readable tables or the raw JSON, "load more" while the platform hands out
// continuation tokens, and the comparison with the legacy call it replaces.
import { useMemo, useState } from 'react';
import {
  operationLabel,
  type DataSubjectOperation,
  type LegacyEquivalent,
} from '../../../shared/data-subject-operations';
import type { LookupResponse } from '../../../shared/data-subject-lookups';
import { ActionButton } from '../../../components/ui/action-button';
import { mergePages } from '../answer-model';
import { useLookup } from '../api/data-subjects-api';
import { formatDateTime } from '../format';
import { legacyCall } from '../legacy-call';
import { listTitleOf } from '../lookup-params';
import { AnswerView } from './answer-view';
import { ComparePanel, type CompareState } from './compare-panel';
import { LookupProblem } from './lookup-problem';
import { OperationTechnicalDetails } from './operation-picker';

/**
 * The number of the legacy listing's next page, or undefined when there is none: the operation
 * takes `page` and the last page loaded neither says `last` nor is the final one of `totalPages`.
 */
function nextLegacyPage(
  legacy: DataSubjectOperation,
  last: LookupResponse | undefined,
): number | undefined {
  if (!legacy.params.some((param) => param.name === 'page')) return undefined;
  const data = last?.data as { number?: unknown; last?: unknown; totalPages?: unknown } | undefined;
  if (!data || typeof data.number !== 'number' || data.last !== false) return undefined;
  if (typeof data.totalPages === 'number' && data.number + 1 >= data.totalPages) return undefined;
  return data.number + 1;
}

/** `totalElements` of a legacy page, where its document gives one. */
function legacyTotal(page: LookupResponse | undefined): number | undefined {
  const total = (page?.data as { totalElements?: unknown } | undefined)?.totalElements;
  return typeof total === 'number' ? total : undefined;
}

/** The most pages "Load all and compare" loads of each side. */
const LOAD_ALL_MAX_PAGES = 50;

/** One lookup and the pages loaded so far. */
export interface LookupResultState {
  readonly operation: DataSubjectOperation;
  /** The parameters it was sent with; "load more" and the comparison reuse them. */
  readonly params: Record<string, string>;
  readonly pages: readonly LookupResponse[];
}

export interface LookupResultProps {
  result: LookupResultState;
  operations: readonly DataSubjectOperation[];
  onMore: (page: LookupResponse) => void;
  /** The form has changed since this lookup: the answer is to the values sent before. */
  outdated?: boolean;
}

/** The result section. */
export function LookupResult({ result, operations, onMore, outdated = false }: LookupResultProps) {
  const { operation, pages } = result;
  const [raw, setRaw] = useState(false);
  const more = useLookup();
  const legacyLookup = useLookup();
  const [compare, setCompare] = useState<CompareState | null>(null);
  // The legacy answer's pages: legacy listings page by number (`page`), "load more" asks for the
  // next one until the page says `last`.
  const [legacyPages, setLegacyPages] = useState<readonly LookupResponse[]>([]);
  const legacyMore = useLookup();
  const legacyData = useMemo(
    () => (legacyPages.length > 0 ? mergePages(legacyPages.map((page) => page.data)) : undefined),
    [legacyPages],
  );

  const data = useMemo(() => mergePages(pages.map((page) => page.data)), [pages]);
  const last = pages.at(-1);
  const continuation = last?.continuation;
  const records = Array.isArray((data as { content?: unknown[] })?.content)
    ? (data as { content: unknown[] }).content.length
    : undefined;

  const loadMore = () => {
    if (!continuation) return;
    more.mutate(
      { operation: operation.id, params: result.params, continuation },
      { onSuccess: onMore },
    );
  };

  const startCompare = (equivalent: LegacyEquivalent) => {
    const legacy = operations.find((op) => op.id === equivalent.operation);
    if (!legacy) return;
    const call = legacyCall(equivalent, legacy, result.params);
    legacyLookup.reset();
    legacyMore.reset();
    setLegacyPages([]);
    setCompare({ equivalent, legacy, call, extra: {}, tried: false });
    if (call.missing.length === 0) {
      legacyLookup.mutate(
        { operation: legacy.id, params: call.values },
        { onSuccess: (page) => setLegacyPages([page]) },
      );
    }
  };

  const runWithExtra = () => {
    if (!compare) return;
    setCompare({ ...compare, tried: true });
    setLegacyPages([]);
    legacyLookup.mutate(
      { operation: compare.legacy.id, params: { ...compare.call.values, ...compare.extra } },
      { onSuccess: (page) => setLegacyPages([page]) },
    );
  };

  const legacyNext = compare ? nextLegacyPage(compare.legacy, legacyPages.at(-1)) : undefined;

  // "Load all and compare": every page of both answers, one after another (each is a lookup of
  // its own, in the audit trail), so the comparison is of whole answers, not of what happened to
  // be loaded. Bounded: a runaway listing stops at LOAD_ALL_MAX_PAGES a side.
  const [loadingAll, setLoadingAll] = useState(false);
  const loadAll = async () => {
    if (!compare) return;
    setLoadingAll(true);
    try {
      let token = continuation;
      for (let count = pages.length; token && count < LOAD_ALL_MAX_PAGES; count += 1) {
        const page = await more.mutateAsync({
          operation: operation.id,
          params: result.params,
          continuation: token,
        });
        onMore(page);
        token = page.continuation;
      }
      let loaded = [...legacyPages];
      let next = nextLegacyPage(compare.legacy, loaded.at(-1));
      while (next !== undefined && loaded.length < LOAD_ALL_MAX_PAGES) {
        const page = await legacyMore.mutateAsync({
          operation: compare.legacy.id,
          params: { ...compare.call.values, ...compare.extra, page: String(next) },
        });
        loaded = [...loaded, page];
        setLegacyPages(loaded);
        next = nextLegacyPage(compare.legacy, page);
      }
    } catch {
      // Shown by the failed mutation's own problem panel.
    } finally {
      setLoadingAll(false);
    }
  };
  const loadMoreLegacy = () => {
    if (!compare || legacyNext === undefined) return;
    legacyMore.mutate(
      {
        operation: compare.legacy.id,
        params: { ...compare.call.values, ...compare.extra, page: String(legacyNext) },
      },
      { onSuccess: (page) => setLegacyPages((old) => [...old, page]) },
    );
  };

  const firstEquivalent = operation.legacy[0];
  return (
    <>
      <section className="card result-card" aria-labelledby="result-title">
        <div className="section-head">
          <div>
            <h2 id="result-title">{operationLabel(operation)}</h2>
            <p className="muted section-note">
              Answered {last ? formatDateTime(last.fetchedAt) : ''}
              {pages.length > 1 ? ` · ${pages.length} pages` : ''}
            </p>
            {outdated ? (
              <p className="outdated-note" role="note">
                Previous answer: the form has changed since this lookup. Look up again for an answer
                to the values now in the form.
              </p>
            ) : null}
          </div>
          <div className="result-actions">
            <ActionButton
              className="button button-small"
              aria-pressed={raw}
              onClick={() => setRaw(!raw)}
            >
              Raw JSON
            </ActionButton>
            {firstEquivalent ? (
              <button
                type="button"
                className="button button-small"
                onClick={() => startCompare(compare?.equivalent ?? firstEquivalent)}
                disabled={legacyLookup.isPending}
              >
                Compare with legacy
              </button>
            ) : null}
          </div>
        </div>
        <OperationTechnicalDetails operation={operation} />
        {operation.version === 'v4' && !firstEquivalent && operation.legacyNote ? (
          <p className="muted section-note">{operation.legacyNote}</p>
        ) : null}
        {raw ? (
          <pre className="raw-json" tabIndex={0} aria-label="Raw JSON of the answer">
            {JSON.stringify(
              pages.length === 1 ? pages[0]?.data : pages.map((p) => p.data),
              null,
              2,
            )}
          </pre>
        ) : (
          <AnswerView data={data} listTitle={listTitleOf(operation)} />
        )}
        {continuation || pages.length > 1 ? (
          <div className="load-more cluster">
            {continuation ? (
              <button type="button" className="button" onClick={loadMore} disabled={more.isPending}>
                {more.isPending ? 'Loading more…' : 'Load more'}
              </button>
            ) : null}
            <p className="muted" role="status">
              {records === undefined ? '' : `${records} records, `}
              {pages.length} {pages.length === 1 ? 'page' : 'pages'} loaded
              {continuation ? '; the platform has more.' : '; that is all.'}
            </p>
            {more.isError ? <LookupProblem error={more.error} headingLevel={3} /> : null}
          </div>
        ) : null}
      </section>
      {compare ? (
        <ComparePanel
          v4={operation}
          v4Data={data}
          state={compare}
          operations={operations}
          onChoose={startCompare}
          onExtra={(name, value) =>
            setCompare({ ...compare, extra: { ...compare.extra, [name]: value } })
          }
          onRun={runWithExtra}
          pending={legacyLookup.isPending}
          error={legacyLookup.error}
          answer={legacyData === undefined ? undefined : { data: legacyData }}
          coverage={{
            v4: { pages: pages.length, complete: !continuation },
            legacy: {
              pages: legacyPages.length,
              complete: legacyNext === undefined,
              total: legacyTotal(legacyPages.at(-1)),
            },
          }}
          onLoadAll={continuation || legacyNext !== undefined ? () => void loadAll() : undefined}
          loadingAll={loadingAll}
          legacyPaging={
            legacyPages.length > 0
              ? {
                  pages: legacyPages.length,
                  total: legacyTotal(legacyPages.at(-1)),
                  more: legacyNext !== undefined ? loadMoreLegacy : undefined,
                  pending: legacyMore.isPending,
                  error: legacyMore.error,
                }
              : undefined
          }
          onClose={() => {
            setCompare(null);
            setLegacyPages([]);
            legacyLookup.reset();
            legacyMore.reset();
          }}
        />
      ) : null}
    </>
  );
}
