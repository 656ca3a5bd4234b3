// Page `/data-subjects`, admins only: pick a v4 operation (or a legacy one), fill a
// form built from the catalog, read the answer as tables, load more pages, and compare with the
// legacy call it replaces. The identifier lives in this page's React state only: never in the
// URL, the history, browser storage or the query cache, and it is gone once the page unmounts.
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { LoadErrorPanel } from '../../../components/ui/load-error-panel';
import { StatusPanel } from '../../../components/ui/status-panel';
import { PageHeader } from '../../../components/ui/page-header';
import type { LookupResponse } from '../../../shared/data-subject-lookups';
import type { OperationParam } from '../../../shared/data-subject-operations';
import { checkLookupParams } from '../../../shared/data-subject-validation';
import { useConsoleMode } from '../../../lib/console-meta-query';
import { useLookup, useOperations } from '../api/data-subjects-api';
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
  const catalog = useOperations();
  return (
    <section className="page page-stack data-subjects-page" aria-labelledby="data-subjects-title">
      <PageHeader titleId="data-subjects-title" title="Data subjects">
        Look up a data subject through the v4 operations and compare each answer with the v1, v2 or
        v3 call it replaces. Every lookup is recorded in the audit trail.
      </PageHeader>
      {catalog.isPending ? (
        <StatusPanel role="status" busy title="Loading the operations…" />
      ) : catalog.isError ? (
        <LoadErrorPanel title="The operations could not be loaded" query={catalog} />
      ) : (
        <Lookups operations={catalog.data.operations} />
      )}
    </section>
  );
}

function Lookups({ operations }: { operations: LookupResultState['operation'][] }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const operation = operationFromParams(searchParams, operations)!;
  const mode = useConsoleMode();
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

  const params = useMemo(() => lookupParams(operation, values), [operation, values]);
  const errors = useMemo(() => checkLookupParams(operation, params).errors, [operation, params]);
  const serverErrors = fieldErrorsOf(lookup.error);
  const errorOf = (name: string) =>
    submitted || touched.has(name) ? (errors[name] ?? serverErrors[name]) : serverErrors[name];

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
    if (Object.keys(errors).length > 0) {
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
      { operation: operation.id, params: sent },
      {
        onSuccess: (page) => setResult({ operation, params: sent, pages: [page] }),
        onError: (error) => {
          const stepUp = stepUpAddress(error, window.location);
          if (stepUp) window.location.assign(stepUp);
        },
      },
    );
  };

  const onMore = (page: LookupResponse) =>
    setResult((old) => (old ? { ...old, pages: [...old.pages, page] } : old));

  return (
    <>
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
          {mode.data === 'demo' ? <DemoHints operation={operation} onUse={set} /> : null}
          <div className="lookup-actions">
            <button type="submit" className="button button-primary" disabled={lookup.isPending}>
              {lookup.isPending ? 'Looking up…' : 'Look up'}
            </button>
            <span className="muted">Recorded in the audit trail under your name.</span>
          </div>
        </form>
      </div>

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
        />
      ) : null}
    </>
  );
}
