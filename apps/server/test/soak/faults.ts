// The soak's faults, done to real processes: agents killed and frozen, engines killed or made to
// answer 500s, PostgreSQL restarted, a simulated node's disk filled. Each returns a line saying
// what it did, for the report.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PostgresServer } from "@llmgw/testing";
import { messageOf } from "@llmgw/domain";
import type { Fleet } from "../harness";
import { sleep } from "../fault-load";
import { pickOne, type ScheduledFault } from "./schedule";

export interface SoakWorld {
  fleet: Fleet;
  postgres: PostgresServer;
  nodes: ReadonlyArray<{ name: string; profile: string }>;
  models: readonly string[];
}

/** How long a fault that lasts (an engine's 500s, a full disk) lasts. */
const LASTING_MS = 20_000;
const AGENT_DOWN_MS = 3_000;
const BLIP_MS = 5_000;
const STORE_DOWN_MS = 3_000;

export async function inject(world: SoakWorld, fault: ScheduledFault): Promise<string> {
  const node = pickOne(world.nodes, fault.pick);
  if (!node) throw new Error("the soak has no nodes");
  const agent = world.fleet.agent(node.name);
  switch (fault.kind) {
    case "kill-agent": {
      agent.process.kill("SIGKILL");
      await agent.process.exited;
      await sleep(AGENT_DOWN_MS);
      await world.fleet.startAgent(node.name, node.profile);
      return `agent ${node.name} killed (-9), started again ${AGENT_DOWN_MS / 1000} s later`;
    }
    case "stop-agent":
      agent.process.kill("SIGSTOP");
      await sleep(BLIP_MS);
      agent.process.kill("SIGCONT");
      return `agent ${node.name} stopped (SIGSTOP) for ${BLIP_MS / 1000} s`;
    case "kill-engine": {
      const engines = world.nodes.flatMap((n) =>
        engineRecords(world.fleet.agent(n.name).dataDir).map((e) => ({ ...e, node: n.name })),
      );
      const engine = pickOne(engines, fault.pick);
      if (!engine) return "no engine was running to kill";
      try {
        process.kill(engine.pid, "SIGKILL");
      } catch (error) {
        return `engine of ${engine.replicaId} on ${engine.node} was already gone (${messageOf(error)})`;
      }
      return `engine of ${engine.replicaId} (${engine.model}) on ${engine.node} killed (-9)`;
    }
    case "restart-store": {
      const { downAtMs, upAtMs } = await world.postgres.restart(STORE_DOWN_MS);
      return `PostgreSQL restarted, down ${((upAtMs - downAtMs) / 1000).toFixed(1)} s`;
    }
    case "engine-errors":
      return engineErrors(world, fault.pick);
    case "full-disk": {
      const file = join(agent.dataDir, "simulated-disk-free");
      writeFileSync(file, "0");
      await sleep(LASTING_MS);
      rmSync(file, { force: true });
      return `disk of ${node.name} reported full for ${LASTING_MS / 1000} s (simulated disk)`;
    }
  }
}

async function engineErrors(world: SoakWorld, pick: number): Promise<string> {
  const ready = (
    await Promise.all(world.models.map((model) => world.fleet.api.replicas.list.query({ model })))
  )
    .flat()
    .filter((r) => r.phase === "ready" && r.endpoint);
  const replica = pickOne(ready, pick);
  if (!replica?.endpoint) return "no ready replica to make fail";
  const control = (faults: string[]) =>
    fetch(`http://${replica.endpoint}/sim/control`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ faults }),
    });
  await control(["status-5xx:1"]);
  await sleep(LASTING_MS);
  // The replica may have been replaced meanwhile; then there is nothing to put back.
  await control([]).catch(() => undefined);
  return `engine of ${replica.id} (${replica.model}) answered 500 to everything for ${LASTING_MS / 1000} s`;
}

interface EngineRecord {
  replicaId: string;
  model: string;
  pid: number;
}

/** The engines an agent records as running (its replicas.json). */
export function engineRecords(dataDir: string): EngineRecord[] {
  try {
    const state = JSON.parse(readFileSync(join(dataDir, "replicas.json"), "utf8")) as {
      replicas?: EngineRecord[];
    };
    return (state.replicas ?? []).filter((r) => Number.isInteger(r.pid) && r.pid > 0);
  } catch {
    return [];
  }
}
