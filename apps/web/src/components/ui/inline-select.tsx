"use client";
// A select with its muted label beside it, as toolbars show their filters and choices.
import type { ReactNode } from "react";

interface InlineSelectProps {
  label: string;
  value: string;
  testId: string;
  onChange(value: string): void;
  /** The <option> elements. */
  children: ReactNode;
}

export function InlineSelect({ label, value, testId, onChange, children }: InlineSelectProps) {
  return (
    <label className="inline-field">
      <span className="muted">{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value)} data-testid={testId}>
        {children}
      </select>
    </label>
  );
}
