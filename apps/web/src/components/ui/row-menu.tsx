"use client";
// A row's menu: a small "⋯" button opening a list of actions on that row (Open in new window…).
// It closes on a choice, on Escape and on a click elsewhere; the row's own click (select) and
// double click (open) do not fire through it.
import { useEffect, useRef, useState } from "react";

export interface RowMenuItem {
  label: string;
  testId: string;
  onSelect(): void;
}

/** The "Open in new window" entry of a row's menu (the node, the model, the replica's logs). */
export function openInWindowItem(label: string, open: () => void): RowMenuItem {
  return { label, testId: "open-in-new-window", onSelect: open };
}

export function RowMenu({ label, items }: { label: string; items: readonly RowMenuItem[] }) {
  const [isOpen, setOpen] = useState(false);
  const menuRef = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!isOpen) return;
    const closeOutside = (event: MouseEvent) => {
      if (!menuRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpen(false);
    };
    document.addEventListener("mousedown", closeOutside);
    document.addEventListener("keydown", closeOnEscape);
    return () => {
      document.removeEventListener("mousedown", closeOutside);
      document.removeEventListener("keydown", closeOnEscape);
    };
  }, [isOpen]);
  return (
    <span
      className="row-menu"
      ref={menuRef}
      onClick={(event) => event.stopPropagation()}
      onDoubleClick={(event) => event.stopPropagation()}
    >
      <button
        type="button"
        className="row-menu-button"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        data-testid="row-menu"
        onClick={() => setOpen((open) => !open)}
      >
        ⋯
      </button>
      {isOpen ? (
        <span className="row-menu-list" role="menu">
          {items.map((item) => (
            <button
              key={item.testId}
              type="button"
              role="menuitem"
              data-testid={item.testId}
              onClick={() => {
                setOpen(false);
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          ))}
        </span>
      ) : null}
    </span>
  );
}
