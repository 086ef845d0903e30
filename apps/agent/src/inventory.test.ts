import { FEATURE_FOR_REQUEST } from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import { queryGpuCsv } from "../test/nvidia-smi-captures";
import type { ExecFn } from "./discovery/exec";
import { ExecError } from "./discovery/exec";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AGENT_FEATURES,
  buildHeartbeat,
  buildRegister,
  realInventory,
  SIMULATED_DISK_FREE_FILE,
  simulatedInventory,
} from "./inventory";
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

describe("simulatedInventory", () => {
  it("reports the disk free that <data-dir>/simulated-disk-free says while it is there", async () => {
    const dir = mkdtempSync(join(tmpdir(), "llmgw-sim-disk-"));
    try {
      const inventory = simulatedInventory("l40sx4", "sim-1", 3, undefined, dir);
      const profileFree = (await inventory.sample()).host.diskBytesFree;
      expect(profileFree).toBeGreaterThan(0n);
      writeFileSync(join(dir, SIMULATED_DISK_FREE_FILE), "1024\n");
      expect((await inventory.sample()).host.diskBytesFree).toBe(1024n);
      // Not a number of bytes: the profile's disk, not a guess.
      writeFileSync(join(dir, SIMULATED_DISK_FREE_FILE), "full");
      expect((await inventory.sample()).host.diskBytesFree).toBe(profileFree);
      rmSync(join(dir, SIMULATED_DISK_FREE_FILE));
      expect((await inventory.sample()).host.diskBytesFree).toBe(profileFree);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
