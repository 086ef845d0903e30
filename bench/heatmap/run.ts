// The heatmap benchmark (P8, P9): serves the built console with `next start`, opens /bench/heatmap
// in Debian's Chromium through Playwright, and times update-to-paint of the heatmap component and of
// a raw-canvas baseline on the same page, and hover (pointer move to tooltip painted) on the
// component. Prints markdown tables and writes them to docs/benchmarks.md. `--smoke` runs a few
// updates and hovers: it fails on errors (wrong cell count, a grid with too many DOM nodes, no
// paint, no tooltip), never on timings.
import { withBenchSection } from "../section";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import { type Page } from "playwright-core";
import { launchChromium } from "../chromium";
import { freePort, waitFor } from "@llmgw/testing";
import { traceUpdates } from "./trace";
import { heatmapSection, hoverTable, P8, resultsTable, type Scenario } from "./report";

/** What apps/web/src/components/bench/heatmap-bench.tsx puts on window (read inside the page). */
interface BenchGlobal {
  llmgwHeatmapBench?: {
    cells: number;
    measure(surface: "component" | "baseline", changeShare: number): Promise<number>;
    domNodesInGrid(): number;
    hover(pick: number): Promise<number>;
  };
}

const COMMAND = "npm run bench:heatmap";
const ROOT = join(import.meta.dirname, "..", "..");
const WEB = join(ROOT, "apps", "web");
const DOCS = join(ROOT, "docs", "benchmarks.md");
const EXPECTED_CELLS = 81_920;
const SHARES = [1, 0.1];
const FULL = { warmup: 10, updates: 60, hovers: 100 };
const SMOKE = { warmup: 1, updates: 3, hovers: 3 };
const TRACED_UPDATES = 20;

function describeMachine(): string {
  const cores = cpus();
  const memoryGib = Math.round(totalmem() / 2 ** 30);
  const load = loadavg()[0]?.toFixed(1) ?? "?";
  return `${cores.length} × ${cores[0]?.model.trim() ?? "unknown CPU"}, ${memoryGib} GiB, load average ${load} at the start`;
}

async function startConsole(port: number) {
  if (!existsSync(join(WEB, ".next", "BUILD_ID")))
    throw new Error("the console is not built: run `node scripts/ensure.mjs --web` first");
  const nextBin = createRequire(join(WEB, "package.json")).resolve("next/dist/bin/next");
  const child = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: WEB,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const url = `http://127.0.0.1:${port}/bench/heatmap`;
  await waitFor(async () => (await fetch(url).catch(() => null))?.ok === true, {
    what: `the console to serve ${url}`,
    timeoutMs: 60_000,
    intervalMs: 300,
  });
  return { url, stop: () => child.kill("SIGTERM") };
}

function measure(page: Page, surface: "component" | "baseline", share: number): Promise<number> {
  return page.evaluate(
    ([s, c]) => {
      const bench = (globalThis as unknown as BenchGlobal).llmgwHeatmapBench;
      if (!bench) throw new Error("the page has no llmgwHeatmapBench; is it /bench/heatmap?");
      return bench.measure(s, c);
    },
    [surface, share] as const,
  );
}

async function runScenario(page: Page, share: number, sizes: typeof FULL): Promise<Scenario> {
  const scenario: Scenario = { changeShare: share, component: [], baseline: [] };
  for (let i = 0; i < sizes.warmup; i++) {
    await measure(page, "component", share);
    await measure(page, "baseline", share);
  }
  for (let i = 0; i < sizes.updates; i++) {
    // Alternate which goes first, so neither always follows the other's garbage.
    const order =
      i % 2 === 0 ? (["component", "baseline"] as const) : (["baseline", "component"] as const);
    for (const surface of order) scenario[surface].push(await measure(page, surface, share));
  }
  return scenario;
}

/** Hovers `count` different cards in view (after two to warm up); -1 marks a missing tooltip. */
async function measureHovers(page: Page, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = -2; i < count; i++) {
    const ms = await page.evaluate(
      (pick) => {
        const bench = (globalThis as unknown as BenchGlobal).llmgwHeatmapBench;
        if (!bench) throw new Error("the page has no llmgwHeatmapBench; is it /bench/heatmap?");
        return bench.hover(pick);
      },
      37 * (i + 2),
    );
    if (i >= 0) times.push(ms);
  }
  return times;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      smoke: { type: "boolean", default: false },
      "no-write": { type: "boolean", default: false },
      // Prints where a component update's time goes (a timeline trace) and measures nothing.
      trace: { type: "boolean", default: false },
    },
  });
  const sizes = values.smoke ? SMOKE : FULL;
  const server = await startConsole(await freePort());
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1400 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(server.url);
    await page.waitForFunction(
      () => (globalThis as unknown as BenchGlobal).llmgwHeatmapBench !== undefined,
      undefined,
      {
        timeout: 30_000,
      },
    );
    const cells = await page.evaluate(() => {
      const bench = (globalThis as unknown as BenchGlobal).llmgwHeatmapBench;
      if (!bench) throw new Error("the page has no llmgwHeatmapBench; is it /bench/heatmap?");
      return bench.cells;
    });
    const canvasCells = Number(
      await page.getByTestId("heatmap-canvas").getAttribute("data-cell-count"),
    );
    const domNodes = await page.evaluate(() => {
      const bench = (globalThis as unknown as BenchGlobal).llmgwHeatmapBench;
      if (!bench) throw new Error("the page has no llmgwHeatmapBench; is it /bench/heatmap?");
      return bench.domNodesInGrid();
    });
    if (values.trace) {
      for (const share of SHARES) {
        const lines = await traceUpdates(page, TRACED_UPDATES, async () => {
          await measure(page, "component", share);
        });
        console.log(`heatmap bench: component, ${share * 100} % of the cards changed:`);
        for (const line of lines) console.log(`  ${line}`);
      }
      return errors.length > 0 ? 1 : 0;
    }
    const scenarios: Scenario[] = [];
    for (const share of SHARES) scenarios.push(await runScenario(page, share, sizes));
    const hovers = await measureHovers(page, sizes.hovers);
    const problems = [
      ...errors.map((message) => `page error: ${message}`),
      ...(cells !== EXPECTED_CELLS || canvasCells !== EXPECTED_CELLS
        ? [`expected ${EXPECTED_CELLS} cells, the page has ${cells} (canvas says ${canvasCells})`]
        : []),
      ...(domNodes > P8.domNodesMax
        ? [`the grid uses ${domNodes} DOM nodes (bar: ${P8.domNodesMax})`]
        : []),
      ...scenarios
        .flatMap((s) => [...s.component, ...s.baseline])
        .filter((ms) => !Number.isFinite(ms) || ms <= 0)
        .slice(0, 1)
        .map(() => "an update never reached the screen"),
      ...(hovers.some((ms) => ms < 0) ? ["a hover showed no tooltip, or another card's"] : []),
    ];
    console.log(resultsTable(scenarios));
    console.log(hoverTable(hovers));
    console.log(`DOM nodes in the grid: ${domNodes}`);
    if (problems.length > 0) {
      console.error(`heatmap bench: ${problems.join("; ")}`);
      return 1;
    }
    if (!values.smoke && !values["no-write"]) {
      const info = {
        command: COMMAND,
        date: new Date().toISOString().slice(0, 10),
        machine: describeMachine(),
        cells,
        domNodes,
      };
      const existing = existsSync(DOCS) ? readFileSync(DOCS, "utf8") : undefined;
      writeFileSync(
        DOCS,
        await withBenchSection("heatmap", existing, heatmapSection(scenarios, hovers, info)),
      );
      console.error(`heatmap bench: wrote ${DOCS}`);
    }
    return 0;
  } finally {
    await browser.close();
    server.stop();
  }
}

process.exitCode = await main();
