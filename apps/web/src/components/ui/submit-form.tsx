"use client";
// A form that sends one write: it reads its input when submitted, checks it against a zod schema
// when it has one, hands it on, and shows what went wrong (the schema's problems, or the server's
// refusal, translated) above its buttons. The caller owns the mutation; the form only shows its
// pending state and its error.
import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormError } from "./form-error";
import { validateInput } from "./validate-input";

export interface FormActionsProps {
  submitLabel: ReactNode;
  /** Shown on the submit button while the write is on its way. */
  pendingLabel?: ReactNode;
  submitTestId: string;
  /** `primary` in dialogs; small inline forms use `control control-small`. */
  submitClassName?: string;
  /** Why the submit button is off, as its tooltip. */
  submitTitle?: string;
  isPending: boolean;
  isSubmitDisabled?: boolean;
  cancelLabel?: ReactNode;
  onCancel?(): void;
  /** Buttons before Cancel, e.g. "Reset to the template". */
  extra?: ReactNode;
}

export function FormActions({
  submitLabel,
  pendingLabel,
  submitTestId,
  submitClassName = "primary",
  submitTitle,
  isPending,
  isSubmitDisabled = false,
  cancelLabel,
  onCancel,
  extra,
}: FormActionsProps) {
  return (
    <div className="dialog-actions">
      {extra}
      {onCancel ? (
        <button type="button" className="control" onClick={onCancel}>
          {cancelLabel}
        </button>
      ) : null}
      <button
        type="submit"
        className={submitClassName}
        disabled={isPending || isSubmitDisabled}
        title={submitTitle}
        data-testid={submitTestId}
      >
        {isPending && pendingLabel !== undefined ? pendingLabel : submitLabel}
      </button>
    </div>
  );
}

export interface SubmitFormProps<Input> {
  className?: string;
  testId?: string;
  /** What the form holds now, as the API takes it; read when the form is submitted. */
  readInput(): Input;
  /** Checked before sending; the server's own schemas are the ones to pass here. */
  schema?: z.ZodType<Input>;
  onSubmit(input: Input): void;
  /** The write's failure; shown until the next attempt replaces it. */
  error: unknown;
  errorTestId: string;
  errorHeading?: ReactNode;
  errorClassName?: string;
  /** List the refusal's problem lines rather than its sentence (see FormError). */
  errorListsDetails?: boolean;
  actions: FormActionsProps;
  children: ReactNode;
}

export function SubmitForm<Input>({
  className,
  testId,
  readInput,
  schema,
  onSubmit,
  error,
  errorTestId,
  errorHeading,
  errorClassName = "form-error",
  errorListsDetails = false,
  actions,
  children,
}: SubmitFormProps<Input>) {
  const { t } = useTranslation();
  const [problems, setProblems] = useState<string[]>([]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateInput(schema, readInput());
    setProblems(checked.ok ? [] : checked.problems);
    if (checked.ok) onSubmit(checked.input);
  };
  return (
    <form className={className} onSubmit={submit} data-testid={testId}>
      {children}
      {problems.length > 0 ? (
        <div className={errorClassName} role="alert" data-testid={errorTestId}>
          <p>{t("form.invalid")}</p>
          <ul>
            {problems.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      ) : (
        <FormError
          error={error}
          testId={errorTestId}
          heading={errorHeading}
          className={errorClassName}
          listsDetails={errorListsDetails}
        />
      )}
      <FormActions {...actions} />
    </form>
  );
}
