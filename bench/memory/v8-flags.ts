// What V8's heap holds beyond its live objects, and what node flags change it at what CPU cost:
// `tsx memory/v8-flags.ts --release DIR [--agents 800] [--store postgres|pglite] [--window-s 60]
// [--variant NAME=FLAGS]…` starts a release's server once per variant (its launcher's `exec node`
// line given FLAGS, in a copy of bin/llmgw beside it), joins N simulated agents, lets them beat,
// measures the server's CPU per heartbeat over a window (as bench:agents does) with its RSS and
// the old space's used size each second, and then reads RSS, V8's account per space and the
// resident 256 KiB anonymous mappings of /proc/PID/smaps (where V8 keeps its pages) twice: as the
// heartbeats left it, and after a forced collection. One line per reading on stderr; `--out FILE`
// also writes them as JSON.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cleanupAll, startPostgres } from "@llmgw/testing";
import { connectJoined, joinNodes, startLlmgw } from "../agents/fleet";
import { steadyWindow } from "../agents/measure";
import type { SimAgent } from "../agents/sim-agent";
import { Inspector, INSPECT_FLAG, INSPECTOR_LISTENING } from "./inspector";

const V8_ACCOUNT = `(() => {
  const v8 = process.getBuiltinModule("v8");
  return { heap: v8.getHeapStatistics(), spaces: v8.getHeapSpaceStatistics() };
})()`;
/** Sums the server's garbage-collection pauses by kind from now on, in globalThis.__gcPauses. */
const WATCH_GC = `(() => {
  const { PerformanceObserver, constants } = process.getBuiltinModule("perf_hooks");
  const names = { [constants.NODE_PERFORMANCE_GC_MINOR]: "scavenge", [constants.NODE_PERFORMANCE_GC_MAJOR]: "mark-compact", [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental", [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak" };
  const pauses = (globalThis.__gcPauses = {});
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const name = names[entry.detail.kind] ?? String(entry.detail.kind);
      const was = pauses[name] ?? { count: 0, ms: 0 };
      pauses[name] = { count: was.count + 1, ms: was.ms + entry.duration };
    }
  }).observe({ entryTypes: ["gc"] });
  return true;
})()`;
/** The old generation's live and dead objects together: what promoted garbage swells. */
const OLD_SPACE_USED = `process.getBuiltinModule("v8").getHeapSpaceStatistics().find((space) => space.space_name === "old_space")?.space_used_size ?? 0`;
const PAGE_KIB = 256;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

interface V8Account {
  heap: Record<string, number>;
  spaces: {
    space_name: string;
    space_size: number;
    space_used_size: number;
    physical_space_size: number;
  }[];
}

/** Resident KiB of anonymous mappings exactly one V8 page long, and of all anonymous mappings. */
function anonymousPages(pid: number): { pageRssKib: number; pages: number; anonRssKib: number } {
  const blocks = readFileSync(`/proc/${pid}/smaps`, "utf8").split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/);
  let pageRssKib = 0;
  let pages = 0;
  let anonRssKib = 0;
  for (const block of blocks) {
    const header = block.split("\n", 1)[0]?.trim().split(/\s+/) ?? [];
    if (header.length > 5) continue;
    const size = Number(/^Size:\s+(\d+)/m.exec(block)?.[1] ?? 0);
    const rss = Number(/^Rss:\s+(\d+)/m.exec(block)?.[1] ?? 0);
    anonRssKib += rss;
    if (size === PAGE_KIB) {
      pages += 1;
      pageRssKib += rss;
    }
  }
  return { pageRssKib, pages, anonRssKib };
}

function vmRssKib(pid: number): number {
  return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
}

/** A copy of the release's launcher that starts node with `flags`. */
function launcherWith(release: string, name: string, flags: string): string {
  const original = readFileSync(join(release, "bin", "llmgw"), "utf8");
  const path = join(release, "bin", `llmgw-${name}`);
  writeFileSync(path, original.replace(/^exec node /m, `exec node ${flags} `));
  chmodSync(path, 0o755);
  return path;
}

async function reading(label: string, pid: number, inspector: Inspector) {
  const v8 = (await inspector.evaluate(V8_ACCOUNT)) as V8Account;
  const pages = anonymousPages(pid);
  const spaces = Object.fromEntries(
    v8.spaces.map((space) => [
      space.space_name,
      {
        sizeMib: mib(space.space_size),
        usedMib: mib(space.space_used_size),
        physicalMib: mib(space.physical_space_size),
      },
    ]),
  );
  const row = { label, rssMib: mib(vmRssKib(pid) * 1024), ...pages, heap: v8.heap, spaces };
  const brief = v8.spaces
    .filter((space) => space.space_size > 0)
    .map(
      (space) =>
        `${space.space_name} ${mib(space.space_used_size)}/${mib(space.physical_space_size)}`,
    )
    .join(", ");
  console.error(
    `${label}: RSS ${row.rssMib} MiB; 256 KiB maps ${pages.pages} resident ${mib(pages.pageRssKib * 1024)} MiB; anon ${mib(pages.anonRssKib * 1024)}; V8 used ${mib(v8.heap.used_heap_size ?? 0)} committed ${mib(v8.heap.total_heap_size ?? 0)} physical ${mib(v8.heap.total_physical_size ?? 0)} malloced ${mib(v8.heap.malloced_memory ?? 0)} (peak ${mib(v8.heap.peak_malloced_memory ?? 0)}); used/physical: ${brief}`,
  );
  return row;
}

async function runVariant(options: {
  release: string;
  name: string;
  flags: string;
  agents: number;
  store: string;
  windowS: number;
}) {
  const env: Record<string, string> = { NODE_OPTIONS: INSPECT_FLAG };
  if (options.store === "postgres") env.DATABASE_URL = (await startPostgres()).url;
  const command = launcherWith(options.release, options.name, options.flags);
  const { server } = await startLlmgw(options.agents * 2 + 16, [], { env, command });
  const pid = server.process.pid;
  const match = await server.process.waitForOutput(INSPECTOR_LISTENING, 10_000);
  const inspector = await Inspector.connect(match[1] ?? "");
  const agents: SimAgent[] = [];
  try {
    const names = Array.from({ length: options.agents }, (_, at) => `vf-${at}`);
    const nodes = await joinNodes(server, names);
    await connectJoined(agents, server, nodes);
    await sleep(20_000);
    await inspector.evaluate(WATCH_GC);
    const rssKib: number[] = [];
    const oldBytes: number[] = [];
    const sampler = setInterval(() => {
      rssKib.push(vmRssKib(pid));
      void inspector.evaluate(OLD_SPACE_USED).then((used) => oldBytes.push(Number(used)));
    }, 1_000);
    const window = await steadyWindow(agents, pid, options.windowS);
    clearInterval(sampler);
    const gcPauses = (await inspector.evaluate("globalThis.__gcPauses")) as Record<
      string,
      { count: number; ms: number }
    >;
    const gcText = Object.entries(gcPauses)
      .map(([kind, { count, ms }]) => `${kind} ${count}× ${ms.toFixed(0)} ms`)
      .join(", ");
    const meanKib = rssKib.reduce((sum, kib) => sum + kib, 0) / Math.max(rssKib.length, 1);
    const rss = {
      meanMib: mib(meanKib * 1024),
      maxMib: mib(Math.max(...rssKib) * 1024),
      minMib: mib(Math.min(...rssKib) * 1024),
    };
    const oldSpace = {
      meanMib: mib(oldBytes.reduce((sum, bytes) => sum + bytes, 0) / Math.max(oldBytes.length, 1)),
      maxMib: mib(Math.max(...oldBytes)),
      minMib: mib(Math.min(...oldBytes)),
    };
    console.error(
      `${options.name} [${options.flags}]: ${window.frames} beats in ${window.seconds.toFixed(0)} s, server CPU ${window.cpuMsPerFrame.toFixed(3)} ms a beat; RSS each second min ${rss.minMib} mean ${rss.meanMib} max ${rss.maxMib} MiB; old space used each second min ${oldSpace.minMib} mean ${oldSpace.meanMib} max ${oldSpace.maxMib} MiB; GC pauses ${gcText}`,
    );
    const asIs = await reading(`${options.name} as beating`, pid, inspector);
    await inspector.collectGarbage();
    await sleep(2_000);
    const collected = await reading(`${options.name} after a forced collection`, pid, inspector);
    return {
      name: options.name,
      flags: options.flags,
      cpuMsPerBeat: window.cpuMsPerFrame,
      rss,
      oldSpace,
      gcPauses,
      asIs,
      collected,
    };
  } finally {
    inspector.close();
    for (const agent of agents) agent.drop();
    await server.process.stop();
    await cleanupAll();
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      release: { type: "string" },
      agents: { type: "string", default: "800" },
      store: { type: "string", default: "postgres" },
      "window-s": { type: "string", default: "60" },
      variant: { type: "string", multiple: true, default: ["default="] },
      out: { type: "string" },
    },
  });
  if (!values.release) throw new Error("--release DIR is needed");
  const results = [];
  for (const variant of values.variant) {
    const [name = "", ...rest] = variant.split("=");
    results.push(
      await runVariant({
        release: values.release,
        name,
        flags: rest.join("="),
        agents: Number(values.agents),
        store: values.store,
        windowS: Number(values["window-s"]),
      }),
    );
  }
  if (values.out) writeFileSync(values.out, `${JSON.stringify(results, null, 1)}\n`);
}

main().catch(async (error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  await cleanupAll();
  process.exitCode = 1;
});
