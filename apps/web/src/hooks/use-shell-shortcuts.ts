// Console-wide keyboard shortcuts. Page-specific keys (arrows and Enter in a table) live with
// their page; here are only the ones that work everywhere.
import { useEffect, useRef } from "react";

/** Marks the input that "/" focuses; pages with a filter put it on their filter box. */
export const FILTER_INPUT_ATTRIBUTE = "data-shortcut-filter";

const SEQUENCE_WINDOW_MS = 1500;

export interface ShellShortcutHandlers {
  goTo(path: string): void;
  toggleHelp(): void;
  openPalette(): void;
  closeOverlays(): void;
}

// Two-key "g x" sequences, like mail clients and issue trackers use.
const GO_TO_TARGETS: Record<string, string> = {
  c: "/cluster",
  n: "/nodes",
  f: "/facility",
  m: "/models",
  r: "/replicas",
  q: "/quotas",
  x: "/explore",
  k: "/keys",
  u: "/usage",
  e: "/events",
  p: "/people",
  s: "/people/sign-in",
  a: "/audit",
  t: "/admin/mcp",
  j: "/admin/guard",
  y: "/account",
};

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

function focusFilter(): boolean {
  const input = document.querySelector<HTMLInputElement>(`[${FILTER_INPUT_ATTRIBUTE}]`);
  if (!input) return false;
  input.focus();
  input.select();
  return true;
}

export function useShellShortcuts(handlers: ShellShortcutHandlers): void {
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;

  useEffect(() => {
    let pendingGoAtMs = 0;
    const onKeyDown = (event: KeyboardEvent) => {
      const current = handlersRef.current;
      // Ctrl-K (Cmd-K on a Mac) works even while typing, as in editors and chat apps.
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k") {
        event.preventDefault();
        current.openPalette();
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "Escape") {
        current.closeOverlays();
        if (isTypingTarget(event.target)) (event.target as HTMLElement).blur();
        return;
      }
      if (isTypingTarget(event.target)) return;
      if (pendingGoAtMs && Date.now() - pendingGoAtMs < SEQUENCE_WINDOW_MS) {
        pendingGoAtMs = 0;
        const path = GO_TO_TARGETS[event.key];
        if (path) {
          event.preventDefault();
          current.goTo(path);
          return;
        }
      }
      if (event.key === "g") {
        pendingGoAtMs = Date.now();
      } else if (event.key === "?") {
        event.preventDefault();
        current.toggleHelp();
      } else if (event.key === "/" && focusFilter()) {
        event.preventDefault();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
