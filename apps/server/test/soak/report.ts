// The soak's report: what was injected when, what the clients saw, and what the invariant checker
// found, as the markdown section `npm run soak` writes into docs/reliability.md.
import { rssSlope } from "@llmgw/testing";

export interface SoakResult {
  minutes: number;
  seed: number;
  everyS: number;
  store: string;
  machine: string;
  faults: Array<{ atS: number; kind: string; what: string }>;
  /** When each failed request ended, in seconds from the start, to lay them against the faults. */
  failedAtS: number[];
  requests: { sent: number; ok: number; explained: Map<string, number>; unexplained: string[] };
  samples: number;
  violations: string[];
  usage: { rows: number; mismatches: string[] };
  /** The server's resident memory, sampled once a minute. */
  serverRss: Array<{ atMin: number; mib: number }>;
  /** Seconds from the end of the last fault until every model was ready at its size again. */
  settledS: number | null;
}

export function soakSection(result: SoakResult): string {
  const lines = [
    "## Soak (R7)",
    "",
    `Run on ${new Date().toISOString().slice(0, 10)}: ${result.minutes} minutes, seed ${result.seed}, ` +
      `a fault every ${result.everyS} s, ${result.store}; ${result.machine}.`,
    "Command: `npm run soak -- --minutes " +
      `${result.minutes} --seed ${result.seed}` +
      "` (writes this section).",
    "",
    "| at | fault | what happened | requests failed until the next fault |",
    "|---:|---|---|---|",
    ...failuresByFault(result.faults, result.failedAtS).map(
      ({ fault: f, failed }) => `| ${formatAt(f.atS)} | ${f.kind} | ${f.what} | ${failed} |`,
    ),
    "",
    "| requests sent | streamed to the end | failed, explained | failed, unexplained |",
    "|---:|---:|---:|---:|",
    `| ${result.requests.sent} | ${result.requests.ok} | ${sum(result.requests.explained)} | ${result.requests.unexplained.length} |`,
    "",
    `Failed requests by what the client was told: ${describeCounts(result.requests.explained)}.`,
    "",
    `Invariant samples (about one a second): ${result.samples}; violations: ${result.violations.length}` +
      (result.violations.length ? ` (first: ${result.violations.slice(0, 3).join("; ")})` : "") +
      ".",
    `Usage rows for the soak's key: ${result.usage.rows}; mismatches with what the clients saw: ` +
      `${result.usage.mismatches.length}` +
      (result.usage.mismatches.length
        ? ` (first: ${result.usage.mismatches.slice(0, 3).join("; ")})`
        : "") +
      ".",
    describeRss(result.serverRss),
    result.settledS === null
      ? "The fleet did not come back to every model ready at its size before the run ended."
      : `Every model was ready at its size again ${result.settledS.toFixed(1)} s after the last fault ended.`,
  ];
  return lines.join("\n") + "\n";
}

/**
 * Each fault with the requests that failed after it and before the next one (with when the first
 * and last of them ended), so a run's failures can be put down to what caused them. Failures before
 * the first fault come first, as a row of their own, when there are any.
 */
export function failuresByFault<F extends { atS: number }>(
  faults: readonly F[],
  failedAtS: readonly number[],
): Array<{ fault: F | { atS: number; kind: string; what: string }; failed: string }> {
  const sorted = [...failedAtS].sort((a, b) => a - b);
  const bands: Array<{ fault: F | { atS: number; kind: string; what: string }; from: number }> = [
    { fault: { atS: 0, kind: "(none yet)", what: "before the first fault" }, from: 0 },
    ...faults.map((fault) => ({ fault, from: fault.atS })),
  ];
  const rows = bands.map((band, at) => {
    const until = bands[at + 1]?.from ?? Number.POSITIVE_INFINITY;
    const inBand = sorted.filter((t) => t >= band.from && t < until);
    const failed =
      inBand.length === 0
        ? "0"
        : `${inBand.length} (${formatAt(inBand[0] as number)}–${formatAt(inBand.at(-1) as number)})`;
    return { fault: band.fault, failed, count: inBand.length };
  });
  return rows
    .filter((row, at) => at > 0 || row.count > 0)
    .map(({ fault, failed }) => ({ fault, failed }));
}

function describeRss(samples: ReadonlyArray<{ atMin: number; mib: number }>): string {
  if (samples.length < 2) return "The server's memory was sampled fewer than twice.";
  const mibs = samples.map((s) => s.mib);
  return (
    `Server resident memory, sampled each minute: ${Math.min(...mibs).toFixed(0)} to ` +
    `${Math.max(...mibs).toFixed(0)} MiB, first ${mibs[0]?.toFixed(0)} and last ` +
    `${mibs.at(-1)?.toFixed(0)} MiB; least-squares slope ${rssSlope(samples).toFixed(2)} MiB a minute.`
  );
}

function formatAt(seconds: number): string {
  const whole = Math.round(seconds);
  const m = Math.floor(whole / 60);
  const s = whole % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

function sum(counts: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const n of counts.values()) total += n;
  return total;
}

function describeCounts(counts: ReadonlyMap<string, number>): string {
  if (counts.size === 0) return "none";
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([how, n]) => `${how} × ${n}`)
    .join(", ");
}
