// A second SIGTERM while a process stops. A process-group SIGTERM (systemd's default KillMode, a
// test harness's stop) reaches `llmgw dev` and its children together, and dev then sends each
// child a SIGTERM of its own; a supervisor may repeat itself too. When the first signal's listener
// was a `once`, the repeat met Node's default action and killed the agent while it stopped its
// engines, which then kept running (the console tests' dev fleet left its three engines behind).
// Here the repeat is sent as soon as the first has been acted on, as that race would.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isProcessAlive, waitFor } from "@llmgw/testing";
import { simGpuModel, simWeightsSource, startFleet, type Fleet } from "./harness";

function enginePids(dataDir: string): number[] {
  const state = JSON.parse(readFileSync(join(dataDir, "replicas.json"), "utf8")) as {
    replicas?: Array<{ pid?: number }>;
  };
  return (state.replicas ?? []).flatMap((r) => (typeof r.pid === "number" ? [r.pid] : []));
}

describe("a repeated stop signal", () => {
  let fleet: Fleet;

  beforeAll(async () => {
    fleet = await startFleet({ agents: [{ name: "it-stop", profile: "h100x8" }] });
    await fleet.api.models.add.mutate({
      definition: simGpuModel("sim-stop", await simWeightsSource("it-stop-weights")),
    });
    await fleet.readyReplicas("sim-stop", 1);
  });

  afterAll(async () => fleet?.stop(Boolean(process.env.IT_DUMP)));

  it("does not kill a simulated agent before it has stopped its engines", async () => {
    const agent = fleet.agent("it-stop");
    const engines = enginePids(agent.dataDir);
    expect(engines).toHaveLength(1);
    expect(engines.filter(isProcessAlive)).toEqual(engines);

    agent.process.kill("SIGTERM");
    await agent.process.waitForOutput(/ info stopping why=SIGTERM/);
    agent.process.kill("SIGTERM");

    const exit = await agent.process.exited;
    expect(exit, agent.process.output()).toEqual({ code: 0, signal: null });
    expect(agent.process.output()).toMatch(/ info already stopping signal=SIGTERM/);
    // The agent waits for its engines' groups before it exits; give a loaded machine a moment.
    const alive = await waitFor(() => (engines.some(isProcessAlive) ? undefined : []), {
      what: "the engine to be gone",
      timeoutMs: 10_000,
    }).catch(() => engines.filter(isProcessAlive));
    expect(alive).toEqual([]);
  });
});
