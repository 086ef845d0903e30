// The heatmap benchmark's results as markdown, in its own marked section of docs/benchmarks.md so
// other benchmarks' sections stay as they are.
import { must } from "@llmgw/domain";

/** P8 in docs/goals.md, as numbers. */
export const P8 = { ratioMax: 1.25, domNodesMax: 100 };

export interface Scenario {
  changeShare: number;
  component: number[];
  baseline: number[];
}

export interface RunInfo {
  command: string;
  date: string;
  machine: string;
  cells: number;
  domNodes: number;
}

function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const lowValue = must(sorted[low], "the value below the quantile");
  const highValue = must(sorted[high], "the value above the quantile");
  return lowValue + (highValue - lowValue) * (position - low);
}

const ms = (value: number) => (Number.isNaN(value) ? "—" : value.toFixed(1));

function ratioOf(scenario: Scenario): number {
  return quantile(scenario.component, 0.5) / quantile(scenario.baseline, 0.5);
}

export function resultsTable(scenarios: readonly Scenario[]): string {
  const rows = scenarios.map((s) => {
    const share = `${Math.round(s.changeShare * 100)} %`;
    const cells = [
      share,
      ms(quantile(s.component, 0.5)),
      ms(quantile(s.component, 0.95)),
      ms(quantile(s.baseline, 0.5)),
      ms(quantile(s.baseline, 0.95)),
      ratioOf(s).toFixed(2),
      String(s.component.length),
    ];
    return `| ${cells.join(" | ")} |`;
  });
  return [
    "| cards changed per update | component median ms | component p95 ms | baseline median ms | baseline p95 ms | median ratio | updates each |",
    "|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}

export function heatmapSection(scenarios: readonly Scenario[], info: RunInfo): string {
  const worst = Math.max(...scenarios.map(ratioOf));
  const verdict = (isMet: boolean) => (isMet ? "met" : "**not met**");
  return `## Heatmap (P8)

Update-to-paint of the cluster view's heatmap component (\`apps/web/src/components/cluster/heatmap-canvas.tsx\`)
against a raw-canvas baseline on the same page (\`/bench/heatmap\`): ${info.cells.toLocaleString("en-US")} synthetic cards (2,048 nodes × 8),
utilisation from a seeded generator. One update gives a share of the cards a new reading; the time runs
from applying it (for the component: a React state update through \`flushSync\`) until the frame that shows it
has been painted (a task posted from the next \`requestAnimationFrame\`). The baseline is the simplest direct
canvas code for the same picture: every cell, \`fillStyle\` + \`fillRect\`, every update. Updates alternate
between the two surfaces, so load from other work on the machine hits both alike. The component comes out
ahead because it sets each colour once per frame (changed cells grouped by colour bucket) and skips cells
whose bucket did not change, where the baseline sets a fill style for every cell; both draw the same rectangles.

${resultsTable(scenarios)}

| bar (P8) | wanted | measured | |
|---|---|---|---|
| update-to-paint vs raw canvas (worst median ratio) | ≤ ${P8.ratioMax} × | ${worst.toFixed(2)} × | ${verdict(worst <= P8.ratioMax)} |
| DOM nodes for the grid | ≤ ${P8.domNodesMax} | ${info.domNodes} | ${verdict(info.domNodes <= P8.domNodesMax)} |

Run ${info.date} in Debian's Chromium (headless, software rendering) through Playwright on ${info.machine}.
Command: \`${info.command}\` (\`--smoke --no-write\` is the quick check \`npm test\` runs).`;
}
