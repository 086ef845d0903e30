"use client";
// A refused or failed write, in the control plane's own words, right where it was asked for: the
// refusal translated by its code when the console knows it (lib/errors), else the server's
// sentence. Where a refusal lists its problems one per line (a key's limits, a token's label),
// a form may show that list instead, under an optional heading.
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { describeError, trpcErrorDetails } from "../../lib/errors";

export interface FormErrorProps {
  error: unknown;
  testId: string;
  /** A sentence above the problems, e.g. "The control plane refused the key". */
  heading?: ReactNode;
  /** `form-error` under a form; `panel panel-error` for a boxed message; `bad-text` inline. */
  className?: string;
  /** Show the refusal's own problem lines (`error.data.details`) instead of its sentence. */
  listsDetails?: boolean;
}

export function FormError({
  error,
  testId,
  heading,
  className = "form-error",
  listsDetails = false,
}: FormErrorProps) {
  const { t } = useTranslation();
  if (!error) return null;
  const details = listsDetails ? trpcErrorDetails(error) : [];
  const message = describeError(error, t);
  if (details.length === 0 && heading === undefined) {
    return (
      <p className={className} role="alert" data-testid={testId}>
        {message}
      </p>
    );
  }
  return (
    <div className={className} role="alert" data-testid={testId}>
      {heading === undefined ? null : <p>{heading}</p>}
      {details.length > 0 ? (
        <ul>
          {details.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : (
        <p>{message}</p>
      )}
    </div>
  );
}
