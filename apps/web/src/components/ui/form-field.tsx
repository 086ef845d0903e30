// One labelled control: the label wraps the control (so a click on the words focuses it and the
// words are its accessible name), and the hint and the error, when there are any, are tied to the
// control through aria-describedby so a screen reader reads them with it.
import {
  cloneElement,
  isValidElement,
  useId,
  type AriaAttributes,
  type ReactElement,
  type ReactNode,
} from "react";

export interface FormFieldProps {
  label: ReactNode;
  hint?: ReactNode;
  /** A problem with what was typed here, shown under the control and announced. */
  error?: ReactNode;
  /** The console has two field layouts: `form-field` (dialogs) and `field` (MCP panels). */
  className?: string;
  /** One control (input, select, textarea); the field adds its aria attributes to it. */
  children: ReactElement;
}

/** The ids a field's hint and error get, and the describedby list that names the present ones. */
export function fieldDescriptionIds(
  baseId: string,
  hasHint: boolean,
  hasError: boolean,
): { hintId?: string; errorId?: string; describedBy?: string } {
  const hintId = hasHint ? `${baseId}-hint` : undefined;
  const errorId = hasError ? `${baseId}-error` : undefined;
  const ids = [hintId, errorId].filter((id): id is string => id !== undefined);
  return { hintId, errorId, describedBy: ids.length > 0 ? ids.join(" ") : undefined };
}

export function FormField({
  label,
  hint,
  error,
  className = "form-field",
  children,
}: FormFieldProps) {
  const baseId = useId();
  const hasError = error !== undefined && error !== null && error !== false;
  const { hintId, errorId, describedBy } = fieldDescriptionIds(baseId, Boolean(hint), hasError);
  const control = isValidElement<AriaAttributes>(children)
    ? cloneElement(children, {
        "aria-describedby": describedBy,
        "aria-invalid": hasError ? true : undefined,
      })
    : children;
  return (
    <label className={className}>
      <span>{label}</span>
      {control}
      {hint ? (
        <span id={hintId} className="muted form-hint">
          {hint}
        </span>
      ) : null}
      {hasError ? (
        <span id={errorId} className="form-error" role="alert">
          {error}
        </span>
      ) : null}
    </label>
  );
}
