"use client";
// A modal question before something that cannot be undone. Cancel has the focus, so a stray Enter
// keeps things as they are.
import type { ReactNode } from "react";
import { Dialog } from "./ui/dialog";

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
  return (
    <Dialog
      testId={testId}
      title={title}
      className="dialog-confirm"
      role="alertdialog"
      onClose={onCancel}
    >
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
    </Dialog>
  );
}
