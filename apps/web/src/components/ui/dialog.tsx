"use client";
// The console's modal: a dimmed overlay, a box named by its heading, Escape and a click outside to
// close. A dialog that shows something only once (a new key, a password) turns both off while it
// does, so the only view of it is not lost by accident.
import { useId, type ReactNode } from "react";
import { useEscape } from "../../hooks/use-escape";

export interface DialogProps {
  testId: string;
  title: ReactNode;
  /** `dialog-wide` for forms, `dialog-confirm` for a question. */
  className?: string;
  role?: "dialog" | "alertdialog";
  /** False while the dialog shows something the operator must act on before it may close. */
  isDismissable?: boolean;
  /** Buttons beside the heading, e.g. a close button. */
  headerActions?: ReactNode;
  onClose(): void;
  children: ReactNode;
}

export function Dialog({
  testId,
  title,
  className = "dialog-wide",
  role = "dialog",
  isDismissable = true,
  headerActions,
  onClose,
  children,
}: DialogProps) {
  const titleId = useId();
  useEscape(isDismissable ? onClose : () => undefined);
  return (
    <div className="overlay" role="presentation" onClick={isDismissable ? onClose : undefined}>
      <div
        className={`dialog ${className}`}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        onClick={(event) => event.stopPropagation()}
      >
        <header className="dialog-header">
          <h2 id={titleId}>{title}</h2>
          {headerActions}
        </header>
        {children}
      </div>
    </div>
  );
}
