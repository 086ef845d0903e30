"use client";
// One resource of a scope drawn against its quota: the held part within the guarantee, the
// borrowed part beyond it in its own colour, a tick where the guarantee ends and a line at the
// limit. The words (title, the at-limit mark) come translated from the page.
import type { QuotaLine } from "@llmgw/api";
import { quotaBarGeometry } from "../../lib/quotas";

export interface QuotaBarProps {
  line: QuotaLine;
  /** What the bar says to a screen reader and in its tooltip: held, guaranteed, limit, borrowed. */
  title: string;
}

export function QuotaBar({ line, title }: QuotaBarProps) {
  const bar = quotaBarGeometry(line);
  return (
    <div
      className={bar.isAtLimit ? "quota-bar quota-bar-at-limit" : "quota-bar"}
      role="img"
      aria-label={title}
      title={title}
      data-testid="quota-bar"
      data-resource={line.resource}
    >
      <span
        className="quota-bar-within"
        style={{ width: `${bar.withinPercent}%` }}
        data-testid="quota-bar-within"
      />
      <span
        className="quota-bar-borrowed"
        style={{ left: `${bar.withinPercent}%`, width: `${bar.borrowedPercent}%` }}
        data-testid="quota-bar-borrowed"
      />
      {bar.guaranteePercent === null ? null : (
        <span
          className="quota-bar-guarantee"
          style={{ left: `${bar.guaranteePercent}%` }}
          data-testid="quota-bar-guarantee"
        />
      )}
      {bar.limitPercent === null ? null : (
        <span
          className="quota-bar-limit"
          style={{ left: `${bar.limitPercent}%` }}
          data-testid="quota-bar-limit"
        />
      )}
    </div>
  );
}
