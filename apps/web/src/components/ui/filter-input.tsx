"use client";
// A table's text filter: the field the "/" shortcut focuses, cleared by Escape.
import { FILTER_INPUT_ATTRIBUTE } from "../../hooks/use-shell-shortcuts";

export function FilterInput(props: {
  testId: string;
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
}) {
  const { value, onChange } = props;
  return (
    <input
      className="filter"
      type="search"
      data-testid={props.testId}
      {...{ [FILTER_INPUT_ATTRIBUTE]: "" }}
      aria-label={props.label}
      placeholder={props.placeholder}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === "Escape" && value) onChange("");
      }}
    />
  );
}
