// A table whose rows lead somewhere (a node, a model's replicas, a replica's logs): the selected
// row, Enter or a double click to go there, Shift+Enter or the row menu's "Open in new window" to
// open it in a window of its own. Every such table is wired through here, so they behave alike.
import { useRouter } from "next/navigation";
import { useCallback, useRef, useState } from "react";
import { openInNewWindow } from "../lib/desk/new-window";
import { useRowKeyboard } from "./use-row-keyboard";

export interface RowNavigation {
  selectedId: string | null;
  onSelect(id: string): void;
  onOpen(id: string): void;
  onOpenInWindow(id: string): void;
}

export function useRowNavigation(
  rowIds: string[],
  pathOf: (id: string) => string,
  isPaused = false,
): RowNavigation {
  const router = useRouter();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const pathOfRef = useRef(pathOf);
  pathOfRef.current = pathOf;
  const onOpen = useCallback((id: string) => router.push(pathOfRef.current(id)), [router]);
  const onOpenInWindow = useCallback((id: string) => openInNewWindow(pathOfRef.current(id)), []);
  useRowKeyboard({
    rowIds,
    selectedId,
    onSelect: setSelectedId,
    onOpen,
    onOpenInWindow,
    isPaused,
  });
  return { selectedId, onSelect: setSelectedId, onOpen, onOpenInWindow };
}
