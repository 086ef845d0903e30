"use client";
// The one time a secret is on screen (an API key, a CLI token, a new person's password): the
// value, a copy button, a plain warning that it will not be shown again, whatever the caller adds
// below it (how to use it), and Done. Test ids hang off `testId`: -warning, -value, -copy,
// -copied, -done.
import { useState, type ReactNode } from "react";
import { copyText } from "../lib/clipboard";

export interface ShownOnceLabels {
  warning: string;
  copy: string;
  copied: string;
  copyFailed: string;
  done: string;
}

export function ShownOnce({
  value,
  labels,
  testId,
  onDone,
  children,
}: {
  value: string;
  labels: ShownOnceLabels;
  testId: string;
  onDone(): void;
  children?: ReactNode;
}) {
  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <div className="created-key" data-testid={testId}>
      <p className="panel panel-warn" role="alert" data-testid={`${testId}-warning`}>
        {labels.warning}
      </p>
      <div className="created-key-row">
        <code className="command created-key-value" data-testid={`${testId}-value`}>
          {value}
        </code>
        <button
          type="button"
          className="control"
          data-testid={`${testId}-copy`}
          onClick={() => void copyText(value).then((ok) => setCopyState(ok ? "copied" : "failed"))}
        >
          {labels.copy}
        </button>
      </div>
      {copyState !== "idle" ? (
        <p
          className={copyState === "copied" ? "status status-live" : "warning"}
          data-testid={`${testId}-copied`}
          data-state={copyState}
        >
          {copyState === "copied" ? labels.copied : labels.copyFailed}
        </p>
      ) : null}
      {children}
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onDone} data-testid={`${testId}-done`}>
          {labels.done}
        </button>
      </div>
    </div>
  );
}
