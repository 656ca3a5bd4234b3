// A labelled form control in the shared look: the bold label above it, its error below it.
import type { ReactNode } from 'react';

export interface FormFieldProps {
  /** The control's id, which the label points at. */
  id: string;
  label: ReactNode;
  /** The wrapper's class, which places the field in its form. */
  className?: string;
  /** The control, then whatever explains it (a hint, a {@link FieldError}, details). */
  children: ReactNode;
}

/** A `<label>` for the control with id `id`, above the control the caller renders. */
export function FormField({ id, label, className, children }: FormFieldProps) {
  return (
    <div className={className}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}

/** The field's error, when there is one; `id` is what the control's aria-describedby names. */
export function FieldError({ id, message }: { id: string; message?: string | null }) {
  return message ? (
    <p id={id} className="field-error">
      {message}
    </p>
  ) : null;
}
