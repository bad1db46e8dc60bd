// A form field: its label, the control, a hint and an error, wired together. The control is drawn by the
// caller (an input, a select, a textarea) and gets the id the label points at, aria-describedby naming
// the hint and the error that are shown, and aria-invalid while there is an error.
import { type ReactNode, useId } from 'react';
import { joinIds } from './aria';

/** What the control spreads onto itself. */
export type FieldControl = {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
};

/** The ids and ARIA values of a field, from its control's id and whether it shows a hint and an error. */
export function fieldWiring(
  id: string,
  {
    hasHint,
    hasError,
    describedBy,
    errorId = `${id}-error`,
  }: { hasHint: boolean; hasError: boolean; describedBy?: string; errorId?: string },
): { hintId: string; errorId: string; control: FieldControl } {
  const hintId = `${id}-hint`;
  const described = joinIds(hasHint && hintId, describedBy, hasError && errorId);
  const control: FieldControl = { id };
  if (described) control['aria-describedby'] = described;
  if (hasError) control['aria-invalid'] = true;
  return { hintId, errorId, control };
}

export function Field({
  label,
  hint,
  error,
  id,
  describedBy,
  errorId: sharedErrorId,
  size = 'normal',
  announce = false,
  className,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  /** Shown under the control and read with it; empty or absent means the field is valid. */
  error?: ReactNode;
  /** The control's id; a generated one when absent. */
  id?: string;
  /** More ids the control is described by (a note elsewhere in the form). */
  describedBy?: string;
  /** The error's id when other controls are described by the same error (a file or a URL: one error). */
  errorId?: string;
  /** `small`: the compact label and row of filter bars and inline forms. */
  size?: 'normal' | 'small';
  /** Read the error out as it appears (role="alert"): for a form with no summary of its errors. */
  announce?: boolean;
  className?: string;
  children: (control: FieldControl) => ReactNode;
}) {
  const generated = useId();
  const hasHint = hint !== undefined && hint !== null && hint !== false;
  const hasError = error !== undefined && error !== null && error !== false && error !== '';
  const { hintId, errorId, control } = fieldWiring(id ?? generated, {
    hasHint,
    hasError,
    describedBy,
    errorId: sharedErrorId,
  });
  const isSmall = size === 'small';
  const classes = ['field', isSmall ? 'field--inline' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <div className={classes}>
      <label htmlFor={control.id} className={isSmall ? 'field__label field__label--small' : 'field__label'}>
        {label}
      </label>
      {children(control)}
      {hasHint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {hasError ? (
        <span id={errorId} className="field__error" role={announce ? 'alert' : undefined}>
          {error}
        </span>
      ) : null}
    </div>
  );
}
