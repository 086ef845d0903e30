// The size axis: the llmgw server that is measured grows from the benchmark's own replicas to
// thousands of replicas of other models, placed by its real reconciler on stand-in nodes (up to
// 250 simulated cards each: a node's Register frame must fit the agent port's 64 KiB first-frame
// cap, which 1,000 cards do not) and reported ready at an engine of their own, so the load
// scraper's calls to them never reach the measured engine.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { createTRPCClient } from "@trpc/client";
import type { AppRouter } from "@llmgw/api";
import { joinAs, tempDir, waitFor, type ServerHandle } from "@llmgw/testing";
import { startStandInAgent, type StandInAgent } from "./stand-in-agent";

const CARDS_PER_NODE = 250;
const REPLICAS_PER_MODEL = 80;

interface Grown {
  agents: StandInAgent[];
  /** Replicas of other models ready in the server's book. */
  others: number;
}

/** Adds `others` ready replicas of other models, `REPLICAS_PER_MODEL` a model, and waits for them. */
export async function growFleet(
  server: ServerHandle,
  api: ReturnType<typeof createTRPCClient<AppRouter>>,
  others: number,
  otherEnginePort: number,
): Promise<Grown> {
  const agents: StandInAgent[] = [];
  for (let node = 0; node * CARDS_PER_NODE < others; node += 1) {
    const nodeName = `bench-fleet-${node}`;
    const identity = await joinAs(server, `bench-${nodeName}`).catch((error: unknown) => {
      throw new Error(`joining stand-in node ${nodeName}: ${String(error)}`);
    });
    agents.push(
      await startStandInAgent({
        ...{ agentUrl: server.agentUrl, nodeName, engines: new Map() },
        tls: { ca: server.caPem, cert: identity.cert, key: identity.key },
        otherModelsPort: otherEnginePort,
        cardCount: Math.min(CARDS_PER_NODE, others - node * CARDS_PER_NODE),
      }).catch((error: unknown) => {
        throw new Error(`connecting stand-in node ${nodeName}: ${String(error)}`);
      }),
    );
    if (process.env.LLMGW_BENCH_VERBOSE) console.error(`size axis: stand-in node ${nodeName} up`);
  }
  const weights = join((await tempDir("bench-fleet-weights")).path, "other.safetensors");
  await writeFile(weights, "the benchmark engine reads no weights");
  for (let model = 0; model * REPLICAS_PER_MODEL < others; model += 1) {
    const count = Math.min(REPLICAS_PER_MODEL, others - model * REPLICAS_PER_MODEL);
    await api.models.add.mutate({
      definition: {
        name: `bench-other-${model}`,
        source: `file://${weights}`,
        profiles: [
          {
            ...{ name: "bench", engine: "sim", gpus: 1 },
            gpu: { min_compute_capability: 7.0, min_memory_gb: 16 },
          },
        ],
        replicas: { min: count, max: count },
      },
    });
  }
  // Counts by phase at the last look, so a fleet that does not get ready says where it stuck.
  let phases = "none listed yet";
  const ready = waitFor(
    async () => {
      const listed = (await api.replicas.list.query({})).filter((r) =>
        r.model.startsWith("bench-other-"),
      );
      const counts = new Map<string, number>();
      for (const replica of listed) counts.set(replica.phase, (counts.get(replica.phase) ?? 0) + 1);
      phases = [...counts].map(([phase, n]) => `${n} ${phase}`).join(", ") || "none listed";
      if (process.env.LLMGW_BENCH_VERBOSE) console.error(`size axis: ${phases}`);
      return (counts.get("ready") ?? 0) >= others;
    },
    { what: `${others} ready replicas of other models`, timeoutMs: 300_000, intervalMs: 2_000 },
  );
  await ready.catch((error: unknown) => {
    throw new Error(`${String(error)} (at the last look: ${phases})`);
  });
  return { agents, others };
}

/** prom-client samples the event loop's delay with a 10 ms timer: that much of every reading is the timer's own. */
const LOOP_RESOLUTION_MS = 10;

/**
 * The server's event-loop delay since its /metrics was last read (prom-client resets its
 * histogram on every read): call once before a run to start afresh and once after to read it.
 */
export async function readLoopDelay(
  origin: string,
): Promise<{ p99Ms: number; maxMs: number } | null> {
  const text = await fetch(`${origin}/metrics`)
    .then((answer) => (answer.ok ? answer.text() : ""))
    .catch(() => "");
  const seconds = (name: string) => {
    const match = new RegExp(
      `^llmgw_process_nodejs_eventloop_lag_${name}_seconds(?:\\{[^}]*\\})? (\\S+)$`,
      "m",
    ).exec(text);
    return match ? Number(match[1]) : Number.NaN;
  };
  const p99 = seconds("p99");
  const max = seconds("max");
  if (!Number.isFinite(p99) || !Number.isFinite(max)) return null;
  const delay = (s: number) => Math.max(0, s * 1_000 - LOOP_RESOLUTION_MS);
  return { p99Ms: delay(p99), maxMs: delay(max) };
}
