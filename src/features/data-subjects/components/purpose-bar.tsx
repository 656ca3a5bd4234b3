// The purpose bar of the data-subjects page: why the people of this investigation are looked up, a
// category of the console's list and a reference (a ticket or request id), stated once and shown
// while it is in force ("Working on DSAR-2291 · access request"), changed in one step.
import type { FormEvent } from 'react';
import {
  PURPOSE_REFERENCE_MAX_LENGTH,
  type LookupPurpose,
  type PurposeMode,
} from '../../../shared/lookup-purpose';

/** What the bar's fields hold while the purpose is being stated. */
export interface PurposeDraft {
  category: string;
  reference: string;
}

/** A problem of the draft, by field; `purpose` is about the purpose as a whole. */
export type PurposeErrors = Partial<Record<'purpose' | 'category' | 'reference', string>>;

export interface PurposeBarProps {
  mode: Exclude<PurposeMode, 'off'>;
  categories: readonly string[];
  /** The purpose in force; null when none is. */
  purpose: LookupPurpose | null;
  /** Whether the fields are shown (no purpose yet, "Change" pressed, or one refused). */
  editing: boolean;
  draft: PurposeDraft;
  errors: PurposeErrors;
  onDraft: (draft: PurposeDraft) => void;
  /** "Use this purpose", or Enter in a field. */
  onApply: () => void;
  onChange: () => void;
  onCancel: () => void;
}

/** Moves focus to the bar's first field with a problem, else its category. */
export function focusPurposeBar(errors: PurposeErrors): void {
  const id = errors.reference && !errors.category ? 'purpose-reference' : 'purpose-category';
  document.getElementById(id)?.focus();
}

/** The bar: the purpose in force with "Change", or the fields that state it. */
export function PurposeBar(props: PurposeBarProps) {
  const { mode, categories, purpose, editing, draft, errors, onDraft } = props;

  if (!editing && purpose) {
    return (
      <div className="card purpose-bar purpose-active" role="group" aria-label="Purpose">
        <p>
          Working on <strong className="purpose-reference">{purpose.reference}</strong>
          {' · '}
          {purpose.category}
        </p>
        <button
          id="purpose-change"
          type="button"
          className="button"
          aria-label="Change the purpose"
          onClick={props.onChange}
        >
          Change
        </button>
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onApply();
  };
  const described = (field: 'category' | 'reference') =>
    [errors[field] ? `purpose-${field}-error` : null, errors.purpose ? 'purpose-error' : null]
      .filter(Boolean)
      .join(' ') || undefined;
  return (
    <form
      className="card purpose-bar stack"
      aria-labelledby="purpose-title"
      noValidate
      autoComplete="off"
      onSubmit={submit}
    >
      <div>
        <h2 id="purpose-title" className="purpose-title">
          Why are you looking people up?
          {mode === 'optional' ? <span className="muted"> (optional)</span> : null}
        </h2>
        <p className="muted section-note">
          State it once for this investigation: it is sent with every lookup and kept in the audit
          trail. The reference is a ticket or request id, never the person’s name or e-mail.
        </p>
      </div>
      <div className="purpose-fields">
        <div className="param-field" data-invalid={errors.category ? true : undefined}>
          <label className="field-label" htmlFor="purpose-category">
            Category
          </label>
          <select
            id="purpose-category"
            className="input"
            value={draft.category}
            required={mode === 'required'}
            aria-invalid={errors.category ? true : undefined}
            aria-describedby={described('category')}
            onChange={(event) => onDraft({ ...draft, category: event.target.value })}
          >
            <option value="">Choose…</option>
            {categories.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </select>
          {errors.category ? (
            <p className="field-error" id="purpose-category-error">
              Category {errors.category}.
            </p>
          ) : null}
        </div>
        <div className="param-field" data-invalid={errors.reference ? true : undefined}>
          <label className="field-label" htmlFor="purpose-reference">
            Reference
          </label>
          <input
            id="purpose-reference"
            className="input"
            type="text"
            spellCheck={false}
            autoCapitalize="off"
            placeholder="e.g. DSAR-2291"
            maxLength={PURPOSE_REFERENCE_MAX_LENGTH}
            value={draft.reference}
            required={mode === 'required'}
            aria-invalid={errors.reference ? true : undefined}
            aria-describedby={described('reference')}
            onChange={(event) => onDraft({ ...draft, reference: event.target.value })}
          />
          {errors.reference ? (
            <p className="field-error" id="purpose-reference-error">
              Reference {errors.reference}.
            </p>
          ) : null}
        </div>
        <div className="purpose-actions">
          <button type="submit" className="button button-primary">
            Use this purpose
          </button>
          {purpose ? (
            <button type="button" className="button" onClick={props.onCancel}>
              Keep {purpose.reference}
            </button>
          ) : null}
        </div>
      </div>
      {errors.purpose ? (
        <p className="field-error" id="purpose-error" role="alert">
          {errors.purpose}
        </p>
      ) : null}
    </form>
  );
}
