// Page `/c/{connection}/data-subjects`, admins of that connection only: pick a v4 operation (or a
// legacy one), fill a form built from the connection's catalog, read the answer as tables, load
// more pages, and compare with the legacy call it replaces, all in that connection's platform. The identifier lives in this page's React state only: never in the
// URL, the history, browser storage or the query cache, and it is gone once the page unmounts.
// Above the form, the purpose bar states why (LOOKUP_PURPOSE), sent with every lookup made here.
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { LoadErrorPanel } from '../../../components/ui/load-error-panel';
import { StatusPanel } from '../../../components/ui/status-panel';
import { PageHeader } from '../../../components/ui/page-header';
import type { LookupResponse } from '../../../shared/data-subject-lookups';
import type { OperationParam } from '../../../shared/data-subject-operations';
import { checkLookupParams } from '../../../shared/data-subject-validation';
import { useConsoleMode, useLookupPurposePolicy } from '../../../lib/console-meta-query';
import { useSession } from '../../../lib/session-query';
import { usePageConnectionName } from '../../../lib/connections-query';
import type { LookupPurpose, PurposeMode } from '../../../shared/lookup-purpose';
import { useLookup, useOperations } from '../api/data-subjects-api';
import { LookupPurposeContext } from '../purpose-context';
import { loadPurpose, savePurpose } from '../purpose-session';
import { focusPurposeBar, PurposeBar, type PurposeDraft, type PurposeErrors } from './purpose-bar';
import { stepUpAddress } from '../step-up';
import { fieldErrorsOf } from '../describe-lookup-problem';
import { defaultValues, lookupParams } from '../lookup-params';
import { operationFromParams } from '../operation-url-state';
import { DemoHints } from './demo-hints';
import { LookupProblem } from './lookup-problem';
import { LookupResult, type LookupResultState } from './lookup-result';
import { OperationPicker } from './operation-picker';
import { ParamField } from './param-field';
import './data-subjects.css';

/** The data-subjects page. */
export function DataSubjectsPage() {
  const connection = usePageConnectionName();
  const catalog = useOperations(connection);
  const policy = useLookupPurposePolicy();
  // Whose purpose the tab keeps (purpose-session.ts): known before the bar reads it.
  const session = useSession();
  return (
    <section className="page page-stack data-subjects-page" aria-labelledby="data-subjects-title">
      <PageHeader titleId="data-subjects-title" title="Data subjects">
        Look up a data subject through the v4 operations and compare each answer with the v1, v2 or
        v3 call it replaces. Every lookup is recorded in the audit trail.
      </PageHeader>
      {catalog.isPending || policy.isPending || session.isPending ? (
        <StatusPanel role="status" busy title="Loading the operations…" />
      ) : catalog.isError ? (
        <LoadErrorPanel title="The operations could not be loaded" query={catalog} />
      ) : policy.isError ? (
        <LoadErrorPanel title="The console’s settings could not be loaded" query={policy} />
      ) : (
        <Lookups
          // Another connection starts a fresh form: one connection's person data (an answer, an
          // identifier typed, a problem) must never stay on screen under another's badge.
          key={connection}
          operations={catalog.data.operations}
          mode={policy.data.mode}
          categories={policy.data.categories}
          user={session.data?.username}
        />
      )}
    </section>
  );
}

/** The draft's problems before anything is sent; an empty draft is fine when a purpose is optional. */
function draftErrors(
  draft: PurposeDraft,
  mode: Exclude<PurposeMode, 'off'>,
  categories: readonly string[],
): PurposeErrors {
  const reference = draft.reference.trim();
  if (mode === 'optional' && draft.category === '' && reference === '') return {};
  return {
    ...(categories.includes(draft.category) ? {} : { category: 'is required: choose one' }),
    ...(reference === '' ? { reference: 'is required (a ticket or request id)' } : {}),
  };
}

/** The purpose bar's problems a refused lookup names (`purpose`, `purpose.category`, …). */
function refusedPurpose(serverErrors: Record<string, string>): PurposeErrors {
  const errors: PurposeErrors = {};
  if (serverErrors.purpose) errors.purpose = `The purpose ${serverErrors.purpose}.`;
  if (serverErrors['purpose.category']) errors.category = serverErrors['purpose.category'];
  if (serverErrors['purpose.reference']) errors.reference = serverErrors['purpose.reference'];
  return errors;
}

/** Whether two parameter sets are the same values, in any order. */
function sameParams(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

interface LookupsProps {
  operations: LookupResultState['operation'][];
  mode: PurposeMode;
  categories: readonly string[];
  /** The signed-in person, whose purpose this tab keeps. */
  user: string | undefined;
}

function Lookups({ operations, mode, categories, user }: LookupsProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  // The purpose in force, kept for this tab's session (purpose-session.ts); ignored with `off`.
  const [purpose, setPurpose] = useState<LookupPurpose | null>(() =>
    mode === 'off' ? null : loadPurpose(user, categories),
  );
  const [editingPurpose, setEditingPurpose] = useState(purpose === null);
  const [draft, setDraft] = useState<PurposeDraft>(
    purpose ?? { category: categories.length === 1 ? categories[0]! : '', reference: '' },
  );
  const [draftChecked, setDraftChecked] = useState(false);
  const operation = operationFromParams(searchParams, operations)!;
  const consoleMode = useConsoleMode();
  // Each operation keeps its own form: a value typed for one (a purpose GUID, a date) never turns
  // up unseen in another's, where it may mean something else or travel elsewhere. The one
  // exception is the data subject's identifier: the five identifier operations ask about the same
  // person, so the last identifier typed fills an identifier field the new form has not set yet,
  // visibly. It lives in this state only (never the URL or storage), like every value here.
  const [forms, setForms] = useState<Record<string, Record<string, string>>>({});
  const [identifier, setIdentifier] = useState('');
  const values = useMemo(() => {
    const own = forms[operation.id] ?? defaultValues(operation, Date.now());
    const carried = operation.params
      .filter((param) => param.format === 'identifier' && !(param.name in own) && identifier)
      .map((param) => [param.name, identifier] as const);
    return carried.length > 0 ? { ...own, ...Object.fromEntries(carried) } : own;
  }, [forms, operation, identifier]);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [result, setResult] = useState<LookupResultState | null>(null);
  const lookup = useLookup();
  const formRef = useRef<HTMLFormElement>(null);
  // The answer (or the problem) opens below the form, out of sight on a phone: each one that
  // arrives takes focus on its heading and scrolls into view, so it is read, not missed.
  const answerRef = useRef<HTMLDivElement>(null);
  const [answers, setAnswers] = useState(0);
  useEffect(() => {
    if (answers === 0) return;
    const heading = answerRef.current?.querySelector<HTMLElement>('h2');
    if (!heading) return;
    heading.tabIndex = -1;
    heading.scrollIntoView?.({ block: 'start' });
    heading.focus({ preventScroll: true });
  }, [answers]);

  const params = useMemo(() => lookupParams(operation, values), [operation, values]);
  const errors = useMemo(() => checkLookupParams(operation, params).errors, [operation, params]);
  const serverErrors = fieldErrorsOf(lookup.error);
  const errorOf = (name: string) =>
    submitted || touched.has(name) ? (errors[name] ?? serverErrors[name]) : serverErrors[name];
  const purposeRefused = refusedPurpose(serverErrors);
  const purposeErrors: PurposeErrors =
    mode === 'off'
      ? {}
      : {
          ...(draftChecked && editingPurpose ? draftErrors(draft, mode, categories) : {}),
          ...purposeRefused,
        };
  // A purpose the BFF refused opens the bar again, with what was typed, beside its problem.
  const barOpen = editingPurpose || Object.keys(purposeRefused).length > 0;

  /**
   * The purpose to send: the bar's draft when its fields are open (and applied on the way), else
   * the one in force; `false` when the draft has a problem (shown beside the bar's fields).
   */
  const applyPurpose = (): LookupPurpose | null | false => {
    if (mode === 'off') return null;
    if (!barOpen) return purpose;
    setDraftChecked(true);
    const problems = draftErrors(draft, mode, categories);
    if (Object.keys(problems).length > 0) {
      focusPurposeBar(problems);
      return false;
    }
    const reference = draft.reference.trim();
    const stated = reference === '' ? null : { category: draft.category, reference };
    lookup.reset();
    setPurpose(stated);
    setDraftChecked(false);
    if (stated) {
      savePurpose(user, stated);
      setEditingPurpose(false);
    }
    return stated;
  };

  const options = operation.params.filter((param) => param.advanced);
  const [optionsOpen, setOptionsOpen] = useState(false);
  const field = (param: OperationParam) => (
    <ParamField
      key={param.name}
      param={param}
      value={values[param.name] ?? ''}
      onChange={(value) => set(param.name, value)}
      onBlur={() => setTouched((old) => new Set(old).add(param.name))}
      error={errorOf(param.name)}
      rangeEnd={param.name === operation.dateRange?.to}
    />
  );

  const choose = (id: string) => {
    setSearchParams({ operation: id }, { replace: true });
    setSubmitted(false);
    setTouched(new Set());
    lookup.reset();
    // The previous operation's answer does not belong under the new, empty form.
    setResult(null);
  };
  const set = (name: string, value: string) => {
    // A refusal of this field described the value sent, not the one now typed.
    if (serverErrors[name]) lookup.reset();
    if (operation.params.some((param) => param.name === name && param.format === 'identifier')) {
      setIdentifier(value);
    }
    setForms((old) => ({
      ...old,
      [operation.id]: { ...values, ...old[operation.id], [name]: value },
    }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const stated = applyPurpose();
    if (stated === false) return;
    if (Object.keys(errors).length > 0) {
      // Nothing is sent, so the last answer (or "not found") would sit under the new problem as
      // if it answered it: it answered other values, and goes.
      lookup.reset();
      setResult(null);
      const first = operation.params.find((param) => errors[param.name]);
      const focus = () =>
        formRef.current?.querySelector<HTMLElement>(`#param-${first?.name}`)?.focus();
      if (first?.advanced) {
        // The field is inside the folded Options: open them, then focus once it is shown.
        setOptionsOpen(true);
        setTimeout(focus, 0);
      } else focus();
      return;
    }
    setResult(null);
    const sent = { ...params };
    lookup.mutate(
      { operation: operation.id, params: sent, ...(stated ? { purpose: stated } : {}) },
      {
        onSuccess: (page) => {
          setResult({ operation, params: sent, pages: [page] });
          setAnswers((count) => count + 1);
        },
        onError: (error) => {
          const stepUp = stepUpAddress(error, window.location);
          if (stepUp) window.location.assign(stepUp);
          else setAnswers((count) => count + 1);
        },
      },
    );
  };

  const onMore = (page: LookupResponse) =>
    setResult((old) => (old ? { ...old, pages: [...old.pages, page] } : old));

  return (
    <LookupPurposeContext value={purpose}>
      {mode === 'off' ? null : (
        <PurposeBar
          mode={mode}
          categories={categories}
          purpose={purpose}
          editing={barOpen}
          draft={draft}
          errors={purposeErrors}
          onDraft={setDraft}
          onApply={() => {
            if (applyPurpose()) {
              // Focus stays in the bar, on what changes it again.
              setTimeout(() => document.getElementById('purpose-change')?.focus(), 0);
            }
          }}
          onChange={() => {
            setDraft(purpose ?? draft);
            setEditingPurpose(true);
            setTimeout(() => focusPurposeBar({}), 0);
          }}
          onCancel={() => {
            lookup.reset();
            setDraft(purpose ?? draft);
            setDraftChecked(false);
            setEditingPurpose(false);
          }}
        />
      )}
      <div className="card lookup-card">
        <OperationPicker operations={operations} selected={operation} onSelect={choose} />
        <form
          ref={formRef}
          className="lookup-form stack"
          aria-label={`Look up: ${operation.title}`}
          noValidate
          autoComplete="off"
          onSubmit={submit}
        >
          {operation.params.length === 0 ? (
            <p className="muted">This operation takes no parameters.</p>
          ) : (
            <div className="param-fields">
              {operation.params.filter((param) => !param.advanced).map(field)}
            </div>
          )}
          {options.length > 0 ? (
            <details
              className="lookup-options"
              // Opens by itself when an option is set or refused, so nothing hides unseen.
              open={
                optionsOpen || options.some((param) => values[param.name] || errorOf(param.name))
              }
              onToggle={(event) => setOptionsOpen(event.currentTarget.open)}
            >
              <summary>
                Options
                <span className="muted">
                  {' '}
                  ({options.filter((param) => values[param.name]).length || 'none'} set)
                </span>
              </summary>
              <p className="muted section-note">
                Documented refinements; anything left unset is not sent, so the platform’s default
                applies.
              </p>
              <div className="param-fields">{options.map(field)}</div>
            </details>
          ) : null}
          {consoleMode.data === 'demo' ? <DemoHints operation={operation} onUse={set} /> : null}
          <div className="lookup-actions">
            <button type="submit" className="button button-primary" disabled={lookup.isPending}>
              {lookup.isPending ? 'Looking up…' : 'Look up'}
            </button>
            <span className="muted">Recorded in the audit trail under your name.</span>
          </div>
        </form>
      </div>

      <div ref={answerRef} className="lookup-answer page-stack">
        {lookup.isPending ? (
          <StatusPanel role="status" busy title="Asking the privacy platform…" />
        ) : lookup.isError ? (
          <LookupProblem error={lookup.error} />
        ) : result ? (
          <LookupResult
            // A new lookup starts with its own raw/compare state.
            key={`${result.operation.id}:${result.pages[0]?.fetchedAt}`}
            result={result}
            operations={operations}
            onMore={onMore}
            outdated={!sameParams(result.params, params)}
          />
        ) : null}
      </div>
    </LookupPurposeContext>
  );
}
