// The console benchmark's results as markdown, in its own marked section of docs/benchmarks.md.
import {
  directAnswersTable,
  togetherTable,
  type DirectAnswer,
  type TogetherAnswer,
} from "./direct-answers";
import type { AnswerSize, PageTiming } from "./measure";

/** P9: every page interactive within 1 s of navigation. */
const P9_INTERACTIVE_MS_MAX = 1_000;

export interface PageResult {
  route: string;
  timings: PageTiming[];
  /** Why the page could not be measured (its content never showed, a click was never answered). */
  failure?: string;
}

export interface RunInfo {
  command: string;
  date: string;
  machine: string;
  nodes: number;
  cards: number;
  replicas: number;
  fleetReadyS: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : "—");

function slowestMedianMs(results: readonly PageResult[]): number {
  // A page that never became interactive counts as infinitely slow.
  return Math.max(
    ...results.map((r) =>
      r.failure !== undefined ? Infinity : median(r.timings.map((t) => t.interactiveMs)),
    ),
  );
}

export function pagesTable(results: readonly PageResult[]): string {
  const rows = results.map((r) => {
    if (r.failure !== undefined)
      return `| \`${r.route}\` | — | — | — | **not met**: ${r.failure.replaceAll("|", "\\|")} | 0 |`;
    const interactive = r.timings.map((t) => t.interactiveMs);
    const slowest = Math.max(...interactive);
    const met = median(interactive) <= P9_INTERACTIVE_MS_MAX ? "met" : "**not met**";
    return `| \`${r.route}\` | ${ms(median(r.timings.map((t) => t.readyMs)))} | ${ms(median(interactive))} | ${ms(slowest)} | ${met} | ${interactive.length} |`;
  });
  return [
    "| page | content ready, median ms | interactive, median ms | interactive, max ms | ≤ 1,000 ms (median) | loads |",
    "| ---- | ---: | ---: | ---: | --- | ---: |",
    ...rows,
  ].join("\n");
}

/** The largest answer each tRPC call (a batch is one call) gave while the pages were open. */
export function answersTable(answers: readonly AnswerSize[]): string {
  const largest = new Map<string, AnswerSize>();
  for (const answer of answers) {
    const known = largest.get(answer.procedure);
    if (!known || answer.bytes > known.bytes) largest.set(answer.procedure, answer);
  }
  const rows = [...largest.values()]
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 8)
    .map((a) => `| \`${a.procedure}\` | ${(a.bytes / 1024).toFixed(1)} | ${ms(a.serverMs)} |`);
  return [
    "| tRPC call (largest answers) | KiB | request → last byte, ms |",
    "| --- | ---: | ---: |",
    ...rows,
  ].join("\n");
}

export function consoleSection(
  results: readonly PageResult[],
  answers: readonly AnswerSize[],
  direct: readonly DirectAnswer[],
  together: readonly TogetherAnswer[],
  info: RunInfo,
): string {
  const slowest = slowestMedianMs(results);
  return `## Console at fleet size (P9)

Every console page (the routes under \`apps/web/app/(console)\`), opened by a full navigation in
Debian's Chromium through Playwright, signed in as the admin, against a real \`llmgw server\` with
${info.nodes.toLocaleString("en")} simulated nodes (stand-in agents over the real agent protocol, labelled simulated),
${info.cards.toLocaleString("en")} cards and ${info.replicas.toLocaleString("en")} ready replicas placed by the server's reconciler (their engine is
one stub, whose \`/metrics\` the server reads once a minute), and the console
served by \`llmgw web\` (the production build). Times run from the start of the navigation (the
page's \`performance.timeOrigin\`). **Content ready**: the page's main content is rendered with its
data (a selector per page in \`bench/console/pages.ts\` that matches only once the data has arrived:
a count, a list row, or the empty state). **Interactive**: Playwright clicks that content as soon as
it sees it, and the frame after the click's dispatch has been painted; a main thread still busy
after the data arrived delays it. The first load of each page is not counted (it warms the server's
and the console's caches).

${pagesTable(results)}

| bar (P9)                                 | wanted     | measured (slowest page's median) |             |
| ---------------------------------------- | ---------- | -------------------------------: | ----------- |
| navigation → interactive, every page     | ≤ 1,000 ms | ${ms(slowest)} ms | ${slowest <= P9_INTERACTIVE_MS_MAX ? "met" : "**not met**"} |

The largest tRPC answers the pages received (through the console's proxy):

${answersTable(answers)}

The whole-fleet answers asked of the server directly (\`bench/console/direct-answers.ts\`: each
procedure alone, after the pages, with the fleet still reporting): what a poll costs the server
itself, without a page's batch; and the same asked through the console's proxy alone, compressed
as a browser asks (what the relay adds).

${directAnswersTable(direct)}

The cluster page's opening requests sent all at once, as the page sends them, by the benchmark
(no browser), five rounds: what answering them together adds to each.

${togetherTable(together)}

Run ${info.date} on ${info.machine}; the fleet took ${info.fleetReadyS.toFixed(0)} s to join and report every replica ready.
Command: \`${info.command}\` (\`--smoke --no-write\` is the quick check \`npm test\` runs: 20 nodes, 40 replicas, one load a page).
To look into a few pages: \`--pages /cluster,/nodes\` (only those), \`--nodes N --replicas M\` (another size),
\`--profile /cluster\` (the JavaScript profile of the page's last load and its tRPC requests on the page's clock,
printed); such runs are never written here.
`;
}
