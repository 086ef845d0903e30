// The release benchmark's results as markdown, in its own marked section of docs/benchmarks.md so
// other benchmarks' sections stay as they are.
import { must } from "@llmgw/domain";

/** One server start: spawn to the first 200 from /healthz, and the node process's RSS then. */
export interface StartSample {
  startMs: number;
  rssBytes: number;
}

export interface Measured {
  release: StartSample[];
  checkout: StartSample[];
}

export interface RunInfo {
  command: string;
  date: string;
  machine: string;
  version: string;
  tarballBytes: number;
  bundleBytes: number;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? must(sorted[middle], "the middle value")
    : (must(sorted[middle - 1], "the value below the middle") +
        must(sorted[middle], "the value above the middle")) /
        2;
}

const mebibytes = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

export function resultsTable(measured: Measured): string {
  const row = (what: string, pick: (s: StartSample) => number, show: (n: number) => string) => {
    const release = median(measured.release.map(pick));
    const checkout = median(measured.checkout.map(pick));
    return `| ${what} | ${show(release)} | ${show(checkout)} | ${(release / checkout).toFixed(2)} × |`;
  };
  return [
    "| server, median of each | release (`bin/llmgw server`) | checkout (tsx) | release / checkout |",
    "|---|---:|---:|---:|",
    row(
      "spawn to first 200 from `/healthz`, ms",
      (s) => s.startMs,
      (n) => n.toFixed(0),
    ),
    row("RSS when ready, MiB", (s) => s.rssBytes, mebibytes),
    `| runs | ${measured.release.length} | ${measured.checkout.length} | |`,
  ].join("\n");
}

export function releaseSection(measured: Measured, info: RunInfo): string {
  return `## Release against checkout

The control plane started from a release (\`npm run release\`: one esbuild bundle, run by node)
and from the checkout (\`packages/cli/bin/llmgw.mjs\`, TypeScript compiled at start by tsx), in the
same run, alternating which goes first. Each start reopens an existing PGlite home (made by one
untimed start before), as a restart or an upgrade does: from spawning the process to the first 200
from \`/healthz\`, then the resident memory (\`VmRSS\`) of the node process serving it. The release's
\`bin/llmgw\` execs node, so that is the process spawned.

${resultsTable(measured)}

Release ${info.version}: the tarball is ${mebibytes(info.tarballBytes)} MiB, its \`lib/llmgw.mjs\`
${mebibytes(info.bundleBytes)} MiB. Run ${info.date} on ${info.machine}.
Command: \`${info.command}\` (\`--smoke --no-write\` is the quick check \`npm test\` runs).`;
}
