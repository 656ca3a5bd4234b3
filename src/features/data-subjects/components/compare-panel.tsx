// The migration view: a v4 answer next to the legacy call it replaces, with what differs first —
// fields v4 adds, fields it carries under another shape, fields it leaves out, lists of another
// length and values that disagree (record by record, paired by id, for listings).
import { useEffect, useMemo, useRef } from 'react';
import {
  operationLabel,
  type DataSubjectOperation,
  type LegacyEquivalent,
} from '../../../shared/data-subject-operations';
import type { LookupResponse } from '../../../shared/data-subject-lookups';
import { counted } from '../../../shared/counted';
import { checkLookupParams } from '../../../shared/data-subject-validation';
import { inlineLabel, pathLabel } from '../answer-model';
import {
  compareAnswers,
  RECORDS_PATH,
  type AnswerComparison,
} from '../../../shared/compare-answers';
import { describeReshaped } from '../../../shared/reshaped-fields';
import type { LegacyCall } from '../legacy-call';
import { listTitleOf } from '../lookup-params';
import { AnswerView } from './answer-view';
import { LookupProblem } from './lookup-problem';
import { ParamField } from './param-field';

export interface CompareState {
  readonly equivalent: LegacyEquivalent;
  readonly legacy: DataSubjectOperation;
  readonly call: LegacyCall;
  /** Values typed for the parameters the v4 lookup could not supply. */
  readonly extra: Record<string, string>;
  readonly tried: boolean;
}

export interface ComparePanelProps {
  v4: DataSubjectOperation;
  v4Data: unknown;
  state: CompareState;
  operations: readonly DataSubjectOperation[];
  onChoose: (equivalent: LegacyEquivalent) => void;
  onExtra: (name: string, value: string) => void;
  onRun: () => void;
  pending: boolean;
  error: unknown;
  /** The legacy answer: its pages loaded so far, merged. */
  answer: Pick<LookupResponse, 'data'> | undefined;
  /** How far a paged legacy listing is loaded, and how to load its next page. */
  legacyPaging?: LegacyPaging | undefined;
  /** How much of each answer is loaded: a comparison of partial pages says so. */
  coverage?: CompareCoverage | undefined;
  /** Loads every remaining page of both sides; absent when both are whole. */
  onLoadAll?: (() => void) | undefined;
  loadingAll?: boolean;
  onClose: () => void;
}

/** The pages each side of the comparison holds. */
export interface CompareCoverage {
  readonly v4: { readonly pages: number; readonly complete: boolean };
  readonly legacy: {
    readonly pages: number;
    readonly complete: boolean;
    readonly total: number | undefined;
  };
}

/** The paging state of a legacy listing in the comparison. */
export interface LegacyPaging {
  readonly pages: number;
  /** `totalElements` of the legacy answer, where documented. */
  readonly total: number | undefined;
  /** Loads the next page; absent on the last one. */
  readonly more: (() => void) | undefined;
  readonly pending: boolean;
  readonly error: unknown;
}

/** The compare section below a v4 result. */
export function ComparePanel({
  v4,
  v4Data,
  state,
  operations,
  onChoose,
  onExtra,
  onRun,
  pending,
  error,
  answer,
  legacyPaging,
  coverage,
  onLoadAll,
  loadingAll = false,
  onClose,
}: ComparePanelProps) {
  const { legacy, call, extra } = state;
  const extraErrors = useMemo(
    () =>
      checkLookupParams(
        { ...legacy, params: call.missing },
        Object.fromEntries(call.missing.map((param) => [param.name, extra[param.name] ?? ''])),
      ).errors,
    [legacy, call.missing, extra],
  );
  const comparison = useMemo(
    () => (answer ? compareAnswers(v4Data, answer.data, state.equivalent.fields) : undefined),
    [answer, v4Data, state.equivalent.fields],
  );
  // The comparison opens below a possibly long answer: bring it into view, and keyboard focus
  // with it.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.scrollIntoView?.({ block: 'start' });
    headingRef.current?.focus({ preventScroll: true });
  }, []);

  return (
    <section className="card compare-card" aria-labelledby="compare-title">
      <div className="section-head">
        <div>
          <h2 id="compare-title" ref={headingRef} tabIndex={-1}>
            Compare with legacy
          </h2>
          <p className="muted section-note">{state.equivalent.note}</p>
        </div>
        <button type="button" className="button button-small" onClick={onClose}>
          Close comparison
        </button>
      </div>
      {v4.legacy.length > 1 ? (
        <div className="compare-choice" role="group" aria-label="Legacy operation">
          {v4.legacy.map((equivalent) => {
            const target = operations.find((op) => op.id === equivalent.operation);
            return (
              <button
                key={equivalent.operation}
                type="button"
                className="button button-small"
                aria-pressed={equivalent.operation === legacy.id}
                onClick={() => onChoose(equivalent)}
              >
                {target?.title ?? equivalent.operation}
              </button>
            );
          })}
        </div>
      ) : null}

      {call.missing.length > 0 ? (
        <form
          className="compare-extra"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (Object.keys(extraErrors).length === 0) onRun();
          }}
        >
          <p>
            {legacy.title} needs{' '}
            {call.missing.map((param) => param.label.toLowerCase()).join(' and ')}, which this v4
            lookup does not have.
          </p>
          {call.missing.map((param) => (
            <ParamField
              key={param.name}
              idPrefix="legacy"
              param={param}
              value={extra[param.name] ?? ''}
              onChange={(value) => onExtra(param.name, value)}
              error={state.tried ? extraErrors[param.name] : undefined}
            />
          ))}
          <button type="submit" className="button button-primary" disabled={pending}>
            {pending ? 'Calling…' : `Call ${legacy.title}`}
          </button>
        </form>
      ) : null}

      {pending ? (
        <p className="muted" role="status">
          Calling {legacy.title}…
        </p>
      ) : error ? (
        <LookupProblem error={error} headingLevel={3} />
      ) : answer && comparison ? (
        <>
          {coverage ? (
            <Coverage coverage={coverage} onLoadAll={onLoadAll} loadingAll={loadingAll} />
          ) : null}
          <DiffSummary comparison={comparison} />
          <div className="compare-columns">
            {/* Plain groups, not landmarks: two regions of one page need names of their own. */}
            <div className="compare-side" role="group" aria-labelledby="compare-v4-title">
              <h3 id="compare-v4-title">{operationLabel(v4)}</h3>
              <AnswerView data={v4Data} listTitle={listTitleOf(v4)} label="v4" />
            </div>
            <div className="compare-side" role="group" aria-labelledby="compare-legacy-title">
              <h3 id="compare-legacy-title">{operationLabel(legacy)}</h3>
              <AnswerView data={answer.data} listTitle={listTitleOf(legacy)} label="Legacy" />
              {legacyPaging ? (
                <LegacyMore paging={legacyPaging} data={answer.data} title={legacy.title} />
              ) : null}
            </div>
          </div>
        </>
      ) : null}
    </section>
  );
}

/** "20 of 43 records, 1 page loaded" and "Load more" under a paged legacy answer. */
function LegacyMore({
  paging,
  data,
  title,
}: {
  paging: LegacyPaging;
  data: unknown;
  title: string;
}) {
  const content = (data as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return null;
  const pages = `${paging.pages} ${paging.pages === 1 ? 'page' : 'pages'} loaded`;
  return (
    <div className="load-more cluster">
      {paging.more ? (
        <button
          type="button"
          className="button button-small"
          onClick={paging.more}
          disabled={paging.pending}
        >
          {paging.pending ? 'Loading more…' : `Load more from ${title}`}
        </button>
      ) : null}
      <p className="muted" role="status">
        {paging.total === undefined
          ? `${content.length} records, ${pages}`
          : `${content.length} of ${paging.total} records, ${pages}`}
        {paging.more ? '; the legacy call has more.' : '; that is all.'}
      </p>
      {paging.error ? <LookupProblem error={paging.error} headingLevel={3} /> : null}
    </div>
  );
}

/** "v4 a; legacy b", or "only in legacy: b" when one side has no value ("v4 —" read as a value). */
function valuesText(v4: readonly string[], legacy: readonly string[]): string {
  if (v4.length === 0) return `only in legacy: ${legacy.join(', ')}`;
  if (legacy.length === 0) return `only in v4: ${v4.join(', ')}`;
  return `v4 ${v4.join(', ')}; legacy ${legacy.join(', ')}`;
}

const pagesText = (count: number) => `${count} ${count === 1 ? 'page' : 'pages'}`;

/**
 * Which pages were compared. Partial pages differ in counts and fields that whole answers share,
 * so a partial comparison says so and offers to load the rest of both.
 */
function Coverage({
  coverage,
  onLoadAll,
  loadingAll,
}: {
  coverage: CompareCoverage;
  onLoadAll: (() => void) | undefined;
  loadingAll: boolean;
}) {
  const { v4, legacy } = coverage;
  const whole = v4.complete && legacy.complete;
  const side = (name: string, pages: number, complete: boolean) =>
    `${name} ${pagesText(pages)}${complete ? ' (all)' : ' (it has more)'}`;
  return (
    <div className="compare-coverage cluster" data-whole={whole || undefined}>
      <p role="status">
        {whole
          ? `Compared whole answers: v4 ${pagesText(v4.pages)}, legacy ${pagesText(legacy.pages)}.`
          : `Compared the pages loaded so far: ${side('v4', v4.pages, v4.complete)}, ${side('legacy', legacy.pages, legacy.complete)}. Counts and fields on pages not loaded are not compared.`}
      </p>
      {!whole && onLoadAll ? (
        <button
          type="button"
          className="button button-small"
          onClick={onLoadAll}
          disabled={loadingAll}
        >
          {loadingAll ? 'Loading every page…' : 'Load all and compare'}
        </button>
      ) : null}
    </div>
  );
}

/** "Purpose GUID" -> "purpose GUID": the label inside a sentence. */

/** Paths grouped under the list they belong to, when the whole list is on one side only. */
function grouped(paths: readonly string[]): Array<{ path: string; children: string[] }> {
  const lists = paths.filter((path) => path.endsWith('[]'));
  const groups: Array<{ path: string; children: string[] }> = [];
  for (const path of paths) {
    const parent = lists.find((list) => path.startsWith(`${list}.`));
    if (parent) continue;
    groups.push({
      path,
      children: path.endsWith('[]')
        ? paths
            .filter((child) => child.startsWith(`${path}.`))
            .map((child) => child.slice(path.length + 1))
        : [],
    });
  }
  return groups;
}

function PathList({ paths, empty }: { paths: readonly string[]; empty: string }) {
  if (paths.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ul className="diff-list">
      {grouped(paths).map(({ path, children }) => (
        <li key={path}>
          <span className="diff-path">{pathLabel(path)}</span>
          {children.length > 0 ? (
            <span className="muted">
              {' '}
              — a list of {children.map((child) => inlineLabel(pathLabel(child))).join(', ')}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * Which records the values compare: a listing's records are paired by their id, so two pages
 * holding different people never read as one person's values disagreeing.
 */
function MatchedNote({ matched }: { matched: NonNullable<AnswerComparison['matched']> }) {
  const unpaired = [
    matched.onlyV4 > 0 ? `${counted(matched.onlyV4, 'record')} only in v4` : '',
    matched.onlyLegacy > 0 ? `${counted(matched.onlyLegacy, 'record')} only in legacy` : '',
  ].filter(Boolean);
  return (
    <p className="muted">
      Record by record, paired by {inlineLabel(pathLabel(matched.by))}:{' '}
      {counted(matched.both, 'record')} on both sides.
      {unpaired.length > 0 ? ` Not compared: ${unpaired.join(' and ')}.` : ''}
    </p>
  );
}

function DiffSummary({ comparison }: { comparison: AnswerComparison }) {
  const countLabel = (path: string) => (path === RECORDS_PATH ? 'Records' : pathLabel(path));
  const paging = comparison.paging;
  return (
    <section className="diff-summary" aria-labelledby="diff-title">
      <h3 id="diff-title">What differs</h3>
      <div className="diff-grid">
        <div>
          <h4>v4 adds</h4>
          <PathList paths={comparison.onlyInV4} empty="Nothing the legacy call lacks." />
        </div>
        <div>
          <h4>v4 leaves out</h4>
          <PathList paths={comparison.onlyInLegacy} empty="Nothing the legacy call has." />
        </div>
        {comparison.reshaped.length > 0 ? (
          <div>
            <h4>Moved or reshaped in v4</h4>
            <ul className="diff-list">
              {comparison.reshaped.map((item) => (
                <li key={item.path}>
                  <span className="diff-path">{pathLabel(item.path)}</span>:{' '}
                  {describeReshaped(item, pathLabel)}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <div>
          <h4>Different counts</h4>
          {comparison.counts.length === 0 ? (
            <p className="muted">Every list has as many entries on both sides.</p>
          ) : (
            <ul className="diff-list">
              {comparison.counts.map((count) => (
                <li key={count.path}>
                  <span className="diff-path">{countLabel(count.path)}</span>: v4 {count.v4}, legacy{' '}
                  {count.legacy}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <h4>Different values</h4>
          {comparison.matched ? <MatchedNote matched={comparison.matched} /> : null}
          {comparison.values.length === 0 ? (
            <p className="muted">Fields both have agree.</p>
          ) : (
            <ul className="diff-list">
              {comparison.values.map((difference) => (
                <li key={difference.path}>
                  <span className="diff-path">{pathLabel(difference.path)}</span>:{' '}
                  {valuesText(difference.v4, difference.legacy)}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      <p className="muted diff-footer">
        {comparison.inBoth.length} fields are in both.
        {paging.v4.length > 0 || paging.legacy.length > 0
          ? ` Paging: v4 ${paging.v4.join(', ') || 'none'}; legacy ${paging.legacy.join(', ') || 'none'}.`
          : ''}
      </p>
    </section>
  );
}
