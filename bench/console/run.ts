// The console benchmark (P9): a real server with a simulated fleet of P9's size (bench/console/
// fleet.ts), the console served by `llmgw web`, and Debian's Chromium through Playwright signing in
// and opening every console page, timing navigation → interactive (bench/console/measure.ts).
// Prints markdown tables and writes them to docs/benchmarks.md. `--smoke` runs a small fleet and one
// load a page: it fails on errors (a page that never shows its content, a click never answered),
// never on timings.
import { withBenchSection } from "../section";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type Browser, type Page } from "playwright-core";
import { launchChromium } from "../chromium";
import { ADMIN_PASSWORD } from "@llmgw/testing";
import { CARDS_PER_NODE, startConsoleFleet, type ConsoleFleet } from "./fleet";
import {
  directAnswersTable,
  timeDirectAnswers,
  timeTogether,
  togetherTable,
} from "./direct-answers";
import { navigationTimeline, startProfile, stopProfile, trpcTimeline } from "./profile";
import { startTrace, stopTrace } from "./trace";
import { installConsoleProbe, recordAnswers, timeNavigation } from "./measure";
import { consolePages, type ConsolePage } from "./pages";
import { answersTable, consoleSection, pagesTable, type PageResult } from "./report";

const COMMAND = "npm run bench:console";
const ROOT = join(import.meta.dirname, "..", "..");
const WEB = join(ROOT, "apps", "web");
const DOCS = join(ROOT, "docs", "benchmarks.md");
const FULL = { nodes: 2_000, replicas: 4_000, loads: 3 };
const SMOKE = { nodes: 20, replicas: 40, loads: 1 };
/** A harmless element of the main content to click where the ready element is a button. */
const CLICK: Record<string, string> = { "/explore": "h1" };

function describeMachine(load: number): string {
  const cores = cpus();
  const memoryGib = Math.round(totalmem() / 2 ** 30);
  return `${cores.length} × ${cores[0]?.model.trim() ?? "unknown CPU"}, ${memoryGib} GiB, load average ${load.toFixed(1)} when the pages were opened`;
}

async function signIn(page: Page, consoleUrl: string): Promise<void> {
  await page.goto(`${consoleUrl}/sign-in`);
  await page.getByTestId("signin-username").fill("admin");
  await page.getByTestId("signin-password").fill(ADMIN_PASSWORD);
  await page.getByTestId("signin-submit").click();
  await page.waitForURL(/\/cluster$/, { timeout: 60_000 });
}

function urlOf(fleet: ConsoleFleet, route: string): string {
  const nodeId = encodeURIComponent(fleet.nodeIds[0] ?? "");
  return `${fleet.consoleUrl}${route.replace("[id]", nodeId)}`;
}

/** What to look into on a page's last load: its JavaScript profile, its Chromium trace. */
interface Looks {
  profile: boolean;
  /** The browser to trace with, when the page is traced. */
  trace: Browser | null;
}

/**
 * One warm-up load, then `loads` timed ones. "/" returns to the last page: /cluster is opened
 * first. With `looks`, the last load runs under the profiler or the tracer and what it saw is printed.
 */
async function measurePage(
  page: Page,
  fleet: ConsoleFleet,
  target: ConsolePage,
  loads: number,
  looks: Looks,
) {
  const result: PageResult = { route: target.route, timings: [] };
  for (let i = -1; i < loads; i++) {
    if (target.route === "/") await page.goto(urlOf(fleet, "/cluster"));
    const isLast = i === loads - 1;
    const profiler = looks.profile && isLast ? await startProfile(page) : null;
    const tracer = isLast ? looks.trace : null;
    if (tracer) await startTrace(tracer, page);
    const timing = await timeNavigation(
      page,
      urlOf(fleet, target.route),
      target.ready,
      CLICK[target.route],
    );
    if (i >= 0) result.timings.push(timing);
    if (tracer) {
      console.error(`console bench: trace of ${target.route} (${JSON.stringify(timing)})`);
      for (const line of await stopTrace(tracer)) console.error(`  ${line}`);
    }
    if (profiler) {
      const lines = [
        ...(await navigationTimeline(page)),
        ...(await trpcTimeline(page)),
        ...(await stopProfile(profiler)),
      ];
      console.error(`console bench: profile of ${target.route} (${JSON.stringify(timing)})`);
      for (const line of lines) console.error(`  ${line}`);
    }
  }
  return result;
}

async function openPages(
  fleet: ConsoleFleet,
  loads: number,
  only: readonly string[],
  profiled: readonly string[],
  traced: readonly string[],
) {
  const pages = consolePages(WEB).filter((p) => only.length === 0 || only.includes(p.route));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await installConsoleProbe(page);
    await signIn(page, fleet.consoleUrl);
    const answers = recordAnswers(page);
    const load = loadavg()[0] ?? 0;
    const results: PageResult[] = [];
    for (const target of pages) {
      const looks = {
        profile: profiled.includes(target.route),
        trace: traced.includes(target.route) ? browser : null,
      };
      const result = await measurePage(page, fleet, target, loads, looks).catch(
        (error: unknown): PageResult => {
          const seen = errors.length > 0 ? ` (page errors: ${errors.join("; ")})` : "";
          const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
          return { route: target.route, timings: [], failure: `${message ?? ""}${seen}` };
        },
      );
      results.push(result);
      console.error(
        `console bench: ${target.route} ${result.timings.map((t) => t.interactiveMs.toFixed(0)).join(" ")} ms`,
      );
    }
    return { results, answers, errors, load };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      smoke: { type: "boolean", default: false },
      "no-write": { type: "boolean", default: false },
      // For looking into a few pages at a size of one's choosing; such a run is never written.
      nodes: { type: "string" },
      replicas: { type: "string" },
      pages: { type: "string" },
      profile: { type: "string" },
      trace: { type: "string" },
    },
  });
  if (!existsSync(join(WEB, ".next", "BUILD_ID")))
    throw new Error("the console is not built: run `node scripts/ensure.mjs --web` first");
  const only = values.pages?.split(",").filter((route) => route !== "") ?? [];
  const size = {
    ...(values.smoke ? SMOKE : FULL),
    ...(values.nodes === undefined ? {} : { nodes: Number(values.nodes) }),
    ...(values.replicas === undefined ? {} : { replicas: Number(values.replicas) }),
  };
  const isPartial =
    only.length > 0 ||
    values.nodes !== undefined ||
    values.replicas !== undefined ||
    values.profile !== undefined ||
    values.trace !== undefined;
  const startedMs = Date.now();
  const fleet = await startConsoleFleet(size, (line) => console.error(line));
  const fleetReadyS = (Date.now() - startedMs) / 1000;
  try {
    const profiled = values.profile?.split(",") ?? [];
    const traced = values.trace?.split(",") ?? [];
    const { results, answers, errors, load } = await openPages(
      fleet,
      size.loads,
      only,
      profiled,
      traced,
    );
    // The pages are what this run is for: a failure asking the server directly leaves them be.
    const direct = await timeDirectAnswers(fleet.apiUrl, fleet.consoleUrl).catch(
      (error: unknown) => {
        console.error(`console bench: the direct answers failed: ${String(error)}`);
        return [];
      },
    );
    const together = await timeTogether(fleet.apiUrl, fleet.consoleUrl).catch((error: unknown) => {
      console.error(`console bench: the requests sent together failed: ${String(error)}`);
      return [];
    });
    console.log(pagesTable(results));
    console.log(answersTable(answers));
    console.log(directAnswersTable(direct));
    console.log(togetherTable(together));
    const failures = results.filter((r) => r.failure !== undefined);
    for (const r of failures) console.error(`console bench: ${r.route}: ${r.failure ?? ""}`);
    if (errors.length > 0 || (values.smoke && failures.length > 0)) {
      console.error(`console bench: page errors: ${errors.join("; ")}`);
      return 1;
    }
    if (!values.smoke && !values["no-write"] && !isPartial) {
      const info = {
        command: COMMAND,
        date: new Date().toISOString().slice(0, 10),
        machine: describeMachine(load),
        nodes: size.nodes,
        cards: size.nodes * CARDS_PER_NODE,
        replicas: size.replicas,
        fleetReadyS,
      };
      const existing = existsSync(DOCS) ? readFileSync(DOCS, "utf8") : undefined;
      writeFileSync(
        DOCS,
        await withBenchSection(
          "console",
          existing,
          consoleSection(results, answers, direct, together, info),
        ),
      );
      console.error(`console bench: wrote ${DOCS}`);
    }
    return failures.length > 0 ? 1 : 0;
  } finally {
    await fleet.stop();
  }
}

process.exitCode = await main();
