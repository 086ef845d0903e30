"use client";
// A modal question before something that cannot be undone. Cancel has the focus, so a stray Enter
// keeps things as they are.
import type { ReactNode } from "react";
import { useEscape } from "../hooks/use-escape";

interface ConfirmDialogProps {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  isBusy: boolean;
  testId: string;
  onConfirm(): void;
  onCancel(): void;
}

export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  cancelLabel,
  isBusy,
  testId,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  useEscape(onCancel);
  return (
    <div className="overlay" role="presentation" onClick={onCancel}>
      <div
        className="dialog dialog-confirm"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${testId}-title`}
        data-testid={testId}
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id={`${testId}-title`}>{title}</h2>
        <p>{body}</p>
        <div className="dialog-actions">
          <button
            type="button"
            className="control"
            onClick={onCancel}
            data-testid={`${testId}-cancel`}
            autoFocus
          >
            {cancelLabel}
          </button>
          <button
            type="button"
            className="control control-danger"
            onClick={onConfirm}
            disabled={isBusy}
            data-testid={`${testId}-ok`}
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
