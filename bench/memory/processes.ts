// The resident memory of the processes besides the server that a demo runs: one simulated agent
// (joined to a server on PGlite and heartbeating) and one sim-engine, each started from the
// checkout (TypeScript compiled at start by tsx) and from a release (one esbuild bundle).
// `tsx memory/processes.ts [--release DIR] [--settle-s 30]`: without --release it builds one.
// Each reading comes after a full garbage collection forced through the process's inspector
// (loopback only), with V8's split from the process's own process.memoryUsage().
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cleanupAll, llmgwBin, spawnProcess, tempDir, type SpawnedProcess } from "@llmgw/testing";
import { startLlmgw } from "../agents/fleet";
import { groupUsage } from "../agents/proc";
import { buildRelease } from "../release/build";
import { Inspector, INSPECT_FLAG, INSPECTOR_LISTENING } from "./inspector";

const MIB = 2 ** 20;

function vmRssBytes(pid: number): number {
  const kib = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kib ?? 0) * 1024;
}

/** `[command, args]` that run `llmgw <args>` from a release folder or from the checkout. */
function llmgw(releaseDir: string | undefined, args: string[]): [string, string[]] {
  return releaseDir
    ? [join(releaseDir, "bin", "llmgw"), args]
    : [process.execPath, [llmgwBin(), ...args]];
}

async function reading(what: string, from: string, spawned: SpawnedProcess): Promise<string> {
  const match = await spawned.waitForOutput(INSPECTOR_LISTENING, 60_000);
  const inspector = await Inspector.connect(match[1] ?? "").catch((error: unknown) => {
    throw new Error(`${what} (${from}): ${String(error)}; its output:\n${spawned.output()}`);
  });
  try {
    await inspector.collectGarbage();
    const usage = await inspector.memoryUsage();
    const rss = vmRssBytes(spawned.pid);
    const rest = rss - usage.heapTotal - usage.external;
    const cells = [rss, usage.heapUsed, usage.heapTotal, usage.external, rest].map((b) =>
      (b / MIB).toFixed(0),
    );
    return `| ${what} | ${from} | ${cells.join(" | ")} | ${(groupUsage(spawned.pid).rssBytes / MIB).toFixed(0)} |`;
  } finally {
    inspector.close();
  }
}

async function measure(from: string, releaseDir: string | undefined, settleMs: number) {
  const command = releaseDir ? join(releaseDir, "bin", "llmgw") : undefined;
  const { server } = await startLlmgw(4, [], { command });
  const env = { NODE_OPTIONS: INSPECT_FLAG };
  const dataDir = (await tempDir("bench-mem-agent")).path;
  const [agentCmd, agentArgs] = llmgw(releaseDir, [
    ...["agent", "--server", server.agentUrl, "--name", "mem-agent", "--simulate", "h100x8"],
  ]);
  const agent = spawnProcess(agentCmd, agentArgs, {
    name: "agent",
    env: {
      ...env,
      LLMGW_JOIN_TOKEN: server.joinToken,
      LLMGW_CA_SHA256: server.caSha256,
      LLMGW_AGENT_DATA_DIR: dataDir,
    },
  });
  const [engineCmd, engineArgs] = llmgw(releaseDir, ["sim-engine", "--port", "0"]);
  const engine = spawnProcess(engineCmd, engineArgs, { name: "sim-engine", env });
  try {
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    return [
      await reading("simulated agent (h100x8, heartbeating)", from, agent),
      await reading("sim-engine (idle)", from, engine),
    ];
  } finally {
    await Promise.all([agent.stop(), engine.stop(), server.process.stop()]);
  }
}

async function main() {
  const { values } = parseArgs({
    options: { release: { type: "string" }, "settle-s": { type: "string", default: "30" } },
  });
  const settleMs = Number(values["settle-s"]) * 1000;
  const releaseDir = values.release ?? (await buildRelease()).releaseDir;
  const rows = [
    ...(await measure("checkout (tsx)", undefined, settleMs)),
    ...(await measure("release", releaseDir, settleMs)),
  ];
  console.log(
    [
      "| process | from | RSS MiB | V8 heap used | V8 heap reserved | external | rest (code, native, stacks) | process group RSS |",
      "| ------- | ---- | ------: | -----------: | ---------------: | -------: | --------------------------: | ----------------: |",
      ...rows,
    ].join("\n"),
  );
}

main().catch(async (error: unknown) => {
  console.error(`memory processes: ${error instanceof Error ? error.stack : String(error)}`);
  await cleanupAll();
  process.exitCode = 1;
});
