"use client";
// A failed load, stated in the operator's language with the next step, plus a manual retry.
import { useTranslation } from "react-i18next";
import { describeError } from "../lib/errors";

interface ErrorPanelProps {
  error: unknown;
  title?: string;
  hint?: string;
  onRetry?(): void;
}

export function ErrorPanel({ error, title, hint, onRetry }: ErrorPanelProps) {
  const { t } = useTranslation();
  return (
    <div className="panel panel-error" role="alert" data-testid="error-panel">
      {title ? <h2>{title}</h2> : null}
      <p>{describeError(error, t)}</p>
      {hint ? <p className="muted">{hint}</p> : null}
      {onRetry ? (
        <button type="button" className="control" onClick={onRetry} data-testid="error-retry">
          {t("errors.retry")}
        </button>
      ) : null}
    </div>
  );
}
