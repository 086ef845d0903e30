// Arrow keys move a selection through table rows, Enter opens it and Shift+Enter opens it in a
// window of its own. They also work while the
// filter box has focus, so an operator can type, arrow down to the match and press Enter.
import { useEffect, useRef } from "react";
import { FILTER_INPUT_ATTRIBUTE, isTypingTarget } from "./use-shell-shortcuts";

interface RowKeyboardOptions {
  rowIds: string[];
  selectedId: string | null;
  onSelect(id: string): void;
  onOpen(id: string): void;
  /** Shift+Enter; without it Shift+Enter opens the row like Enter. */
  onOpenInWindow?(id: string): void;
  /** While a dialog is open over the table, its keys are the dialog's. */
  isPaused?: boolean;
}

/** The id `delta` rows away from the selection, clamped to the ends; the first row when none. */
export function moveSelection(
  rowIds: readonly string[],
  selectedId: string | null,
  delta: number,
): string | null {
  if (rowIds.length === 0) return null;
  const index = selectedId === null ? -1 : rowIds.indexOf(selectedId);
  if (index === -1) return rowIds[delta > 0 ? 0 : rowIds.length - 1] ?? null;
  return rowIds[Math.min(rowIds.length - 1, Math.max(0, index + delta))] ?? null;
}

const DELTAS: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 };

export function useRowKeyboard(options: RowKeyboardOptions): void {
  const optionsRef = useRef(options);
  optionsRef.current = options;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      const isFilter =
        event.target instanceof HTMLElement && event.target.hasAttribute(FILTER_INPUT_ATTRIBUTE);
      if (isTypingTarget(event.target) && !isFilter) return;
      // Buttons, links and the column chooser's summary handle Enter themselves; only rows are ours.
      if (
        event.key === "Enter" &&
        !isFilter &&
        event.target instanceof HTMLElement &&
        event.target.closest("a,button,summary")
      )
        return;
      const { rowIds, selectedId, onSelect, onOpen, onOpenInWindow, isPaused } = optionsRef.current;
      if (isPaused) return;
      const delta = DELTAS[event.key];
      if (delta !== undefined) {
        event.preventDefault();
        const next = moveSelection(rowIds, selectedId, delta);
        if (next !== null) onSelect(next);
      } else if (event.key === "Enter" && selectedId !== null && rowIds.includes(selectedId)) {
        event.preventDefault();
        (event.shiftKey && onOpenInWindow ? onOpenInWindow : onOpen)(selectedId);
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
