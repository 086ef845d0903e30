import { describe, expect, it } from "vitest";
import { DEFAULT_LIVENESS, must } from "@llmgw/domain";
import { create, EngineInstallPhase, HeartbeatSchema, RegisterSchema } from "@llmgw/proto";
import { Registry } from "prom-client";
import { registerEngineInstallMetrics } from "../metrics-engine-installs";
import { engineInstallViews, offeredEngines } from "./engine-installs";
import { reconcileNodes } from "./placement-nodes";
import { FleetRegistry } from "./registry";

const install = (phase: EngineInstallPhase, message = "") => ({
  engine: "llamacpp",
  version: "v0.5.0-de3ff81",
  phase,
  message,
  logTail: ["[204/204] Linking CXX executable bin/llama-server"],
  changedAtMs: 1_700_000_000_000n,
});

function cpuNode(phase: EngineInstallPhase) {
  const registry = new FleetRegistry();
  registry.connect(
    create(RegisterSchema, {
      nodeId: "cpu-1",
      nodeName: "cpu-1",
      engines: [],
      engineInstalls: [install(EngineInstallPhase.INSTALLING)],
    }),
    1,
    1_000,
  );
  registry.heartbeat(
    "cpu-1",
    1,
    create(HeartbeatSchema, { engineInstalls: [install(phase)] }),
    1_500,
  );
  return registry;
}

const placementEngines = (registry: FleetRegistry) =>
  reconcileNodes(registry, [], 2_000, DEFAULT_LIVENESS, 0)[0]?.node.engines;

describe("engine installs on the control plane", () => {
  it("offers nothing while llama.cpp is being built, not 'any engine'", () => {
    const registry = cpuNode(EngineInstallPhase.INSTALLING);
    expect(placementEngines(registry)).toEqual([]);
  });

  it("offers llamacpp once the heartbeat says its install is ready", () => {
    const registry = cpuNode(EngineInstallPhase.READY);
    expect(placementEngines(registry)).toEqual(["llamacpp"]);
    expect(offeredEngines(must(registry.all()[0], "the live node"))).toEqual(["llamacpp"]);
  });

  it("never offers a failed install, and shows why with its last lines", () => {
    const registry = cpuNode(EngineInstallPhase.FAILED);
    expect(placementEngines(registry)).toEqual([]);
    const [view] = engineInstallViews(must(registry.all()[0], "the live node"));
    expect(view).toMatchObject({
      engine: "llamacpp",
      state: "failed",
      logTail: ["[204/204] Linking CXX executable bin/llama-server"],
      changedAt: "2023-11-14T22:13:20.000Z",
    });
  });

  it("publishes llmgw_engine_install with 1 on the current state only", async () => {
    const registry = new Registry();
    const views = engineInstallViews(
      must(cpuNode(EngineInstallPhase.FAILED).all()[0], "the live node"),
    );
    registerEngineInstallMetrics(registry, {
      list: async () => [{ name: "cpu-1", engineInstalls: views }],
    });
    const text = await registry.metrics();
    expect(text).toContain('llmgw_engine_install{node="cpu-1",engine="llamacpp",state="failed"} 1');
    expect(text).toContain('llmgw_engine_install{node="cpu-1",engine="llamacpp",state="ready"} 0');
  });
});

describe("the engine build's effect on what a node offers", () => {
  function gpuNode(withheld: string[]) {
    const registry = new FleetRegistry();
    const register = { nodeId: "gpu-1", nodeName: "gpu-1", engines: ["vllm", "sglang"] };
    registry.connect(create(RegisterSchema, register), 1, 1_000);
    const engineBuild = { choice: "none", build: "none", withheldEngines: withheld };
    registry.heartbeat("gpu-1", 1, create(HeartbeatSchema, { engineBuild }), 1_500);
    return must(registry.get("gpu-1"), "the node just registered");
  }

  it("leaves out the engines the node's build withholds, and only those", () => {
    expect(offeredEngines(gpuNode(["vllm"]))).toEqual(["sglang"]);
    expect(offeredEngines(gpuNode([]))).toEqual(["vllm", "sglang"]);
  });
});
