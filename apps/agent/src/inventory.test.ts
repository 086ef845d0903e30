import { FEATURE_FOR_REQUEST } from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import { queryGpuCsv } from "../test/nvidia-smi-captures";
import type { ExecFn } from "./discovery/exec";
import { ExecError } from "./discovery/exec";
import { AGENT_FEATURES, buildHeartbeat, buildRegister, realInventory } from "./inventory";
import { createLogger, LogRing } from "./log-ring";

const CONFIG = {
  serverUrls: ["wss://a:1"],
  joinToken: "tok",
  nodeName: "gpu-9",
  labels: { zone: "z1" },
  dataDir: ".",
};

function logger() {
  const ring = new LogRing();
  return { ring, logger: createLogger({ ring, write: () => {}, nowMs: () => 0 }) };
}

describe("realInventory", () => {
  it("registers a real H200 MIG node as not simulated, with driver and CUDA versions", async () => {
    const exec: ExecFn = async (_file, args) =>
      args[0] === "--version"
        ? { exitCode: 0, stdout: "DRIVER version : 590.48.01\nCUDA Version : 13.1\n", stderr: "" }
        : {
            exitCode: 0,
            stdout: queryGpuCsv("linux-x86_64__nvidia-h200-mig__590.48.01.txt", "load"),
            stderr: "",
          };
    const { logger: log } = logger();
    const inventory = await realInventory(".", exec, log);
    const register = buildRegister(CONFIG, "id-9", inventory);
    // The join token is spent at join and never sent again (Register.join_token is deprecated).
    expect(register).not.toHaveProperty("joinToken");
    expect(register).toMatchObject({
      nodeId: "id-9",
      simulated: false,
      simulationProfile: "",
      labels: { zone: "z1" },
    });
    expect(register.hardware).toMatchObject({ driverVersion: "590.48.01", cudaVersion: "13.1" });
    expect(register.hardware?.gpus?.[0]).toMatchObject({ name: "NVIDIA H200", migEnabled: true });
    const heartbeat = await buildHeartbeat(inventory);
    expect(heartbeat.gpus[0]?.utilizationPercent).toBeUndefined();
    expect(heartbeat.gpus[0]?.temperatureCelsius).toBe(36);
  });

  it("is a CPU node, said in the log, when nvidia-smi is missing", async () => {
    const exec: ExecFn = async () =>
      Promise.reject(new ExecError("spawn nvidia-smi ENOENT", "ENOENT", false));
    const { ring, logger: log } = logger();
    const inventory = await realInventory(".", exec, log);
    expect(inventory.gpus).toEqual([]);
    expect(ring.snapshot().join("\n")).toMatch(/warn no gpus why="nvidia-smi not found/);
    expect((await buildHeartbeat(inventory)).gpus).toEqual([]);
  });
});

describe("AGENT_FEATURES", () => {
  it("announces the feature of every request the control plane may send", () => {
    // The server refuses a request whose feature an agent did not announce; a missing one here
    // would make this agent refuse work it can do.
    for (const [request, feature] of Object.entries(FEATURE_FOR_REQUEST)) {
      expect(AGENT_FEATURES, `${request} needs "${feature}"`).toContain(feature);
    }
  });
});
