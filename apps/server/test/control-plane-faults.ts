// What the leader fault tests (R2, power cut) share: a second control plane's home, who leads as
// each control plane's /metrics says, and the double-placement checker over the store's replicas
// table and the agents' own records of the engines they run.
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inArray, replicas, type Database } from "@llmgw/db";
import type { ServerSetup } from "@llmgw/testing";

/** A further control plane's home: the first's master key and cluster CA, its own certificate. */
export function secondHome(first: ServerSetup, second: ServerSetup): void {
  mkdirSync(join(second.homeDir, "pki"), { recursive: true });
  copyFileSync(join(first.homeDir, "master.key"), join(second.homeDir, "master.key"));
  for (const file of ["ca.crt", "ca.key"])
    copyFileSync(join(first.homeDir, "pki", file), join(second.homeDir, "pki", file));
}

/** Whether the control plane at apiUrl says on /metrics that it leads; false when it is away. */
export async function leads(apiUrl: string): Promise<boolean> {
  try {
    const text = await (
      await fetch(`${apiUrl}/metrics`, { signal: AbortSignal.timeout(1_000) })
    ).text();
    return /^llmgw_leader\{[^}]*\} 1$/m.test(text);
  } catch {
    return false;
  }
}

/** Phases in which a replica holds its cards. */
const HOLDING = ["placing", "fetching", "starting", "ready", "draining"] as const;
/** Phases that count towards a model's replicas (a draining one is on its way out). */
const SERVING = new Set(["placing", "fetching", "starting", "ready"]);

export interface Violation {
  atMs: number;
  source: "store" | "agents";
  what: string;
}

/**
 * One sample of the invariants: no card held twice (in the store, and on each node as its agent
 * records it), and no model above its desired count (`desired`, by model name).
 */
export async function checkPlacements(
  db: Database,
  agentDataDirs: readonly string[],
  desired: ReadonlyMap<string, number>,
): Promise<Violation[]> {
  const atMs = Date.now();
  const found: Violation[] = [];
  const rows = await db
    .select()
    .from(replicas)
    .where(inArray(replicas.phase, [...HOLDING]));
  found.push(
    ...doubleCards(rows.map((r) => ({ id: r.id, node: r.nodeId, cards: r.gpuIndexes }))).map(
      (what) => ({ atMs, source: "store" as const, what }),
    ),
  );
  const serving = rows.filter((r) => SERVING.has(r.phase));
  found.push(
    ...overDesired(
      serving.map((r) => r.model),
      desired,
    ).map((what) => ({
      atMs,
      source: "store" as const,
      what,
    })),
  );
  const engines = agentDataDirs.flatMap((dir) =>
    agentRecords(dir).map((r) => ({
      id: r.replicaId,
      node: dir,
      cards: r.gpuIndexes,
      model: r.model,
    })),
  );
  found.push(
    ...doubleCards(engines).map((what) => ({ atMs, source: "agents" as const, what })),
    ...overDesired(
      engines.map((e) => e.model),
      desired,
    ).map((what) => ({
      atMs,
      source: "agents" as const,
      what,
    })),
  );
  return found;
}

function doubleCards(held: Array<{ id: string; node: string; cards: number[] }>): string[] {
  const holder = new Map<string, string>();
  const found: string[] = [];
  for (const { id, node, cards } of held)
    for (const card of cards) {
      const slot = `${node}#${card}`;
      const other = holder.get(slot);
      if (other && other !== id) found.push(`card ${slot} held by ${other} and ${id}`);
      holder.set(slot, id);
    }
  return found;
}

function overDesired(models: string[], desired: ReadonlyMap<string, number>): string[] {
  const counts = new Map<string, number>();
  for (const model of models) counts.set(model, (counts.get(model) ?? 0) + 1);
  return [...counts].flatMap(([model, count]) =>
    count > (desired.get(model) ?? 0)
      ? [`${model} has ${count} replicas, desired ${desired.get(model) ?? 0}`]
      : [],
  );
}

interface AgentRecord {
  replicaId: string;
  model: string;
  gpuIndexes: number[];
}

/** The engines an agent records as running (its replicas.json); none before it wrote one. */
function agentRecords(dataDir: string): AgentRecord[] {
  try {
    const state = JSON.parse(readFileSync(join(dataDir, "replicas.json"), "utf8")) as {
      replicas?: AgentRecord[];
    };
    return state.replicas ?? [];
  } catch {
    return [];
  }
}
