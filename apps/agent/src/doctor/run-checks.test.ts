import { must } from "@llmgw/domain";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DoctorCheckStatus, EngineInstallPhase } from "@llmgw/proto";
import { afterAll, describe, expect, it } from "vitest";
import { queryGpuCsv } from "../../test/nvidia-smi-captures";
import { ExecError, type ExecFn } from "../discovery/exec";
import { answerDoctor } from "./doctor-reply";
import { runDoctorChecks, type DoctorDeps } from "./run-checks";

const GIB = 2 ** 30;
const LSPCI_L20 = readFileSync(new URL("./fixtures/lspci-l20.txt", import.meta.url), "utf8");
const dataDir = mkdtempSync(join(tmpdir(), "doctor-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A node without the NVIDIA driver: nvidia-smi is not on its PATH (this machine, as it is). */
const noDriver: ExecFn = () =>
  Promise.reject(new ExecError("spawn nvidia-smi ENOENT", "ENOENT", false));

/** A node with the H100 of the project's nvidia-smi captures and the L20's lspci text. */
const withCards: ExecFn = async (file, args) => {
  if (file === "lspci") return { exitCode: 0, stdout: LSPCI_L20, stderr: "" };
  if (args[0] === "--version")
    return { exitCode: 0, stdout: "DRIVER version : 590.48.01\nCUDA Version : 13.1\n", stderr: "" };
  const csv = queryGpuCsv("linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01.txt", "idle");
  return { exitCode: 0, stdout: csv, stderr: "" };
};

function deps(exec: ExecFn, overrides: Partial<DoctorDeps> = {}): DoctorDeps {
  return {
    exec,
    nowMs: () => Date.now(),
    dataDir,
    clockSkewMs: async () => ({ skewMs: 300 }),
    memoryReadRate: async () => 40e9,
    diskRoom: async () => ({ freeBytes: 500 * GIB, totalBytes: 1000 * GIB }),
    ...overrides,
  };
}

describe("runDoctorChecks", () => {
  it("runs on a node without GPUs and says so instead of failing", async () => {
    const checks = await runDoctorChecks(deps(noDriver));
    expect(checks.map((check) => check.id)).toEqual([
      "gpu.driver",
      "disk.cache",
      "clock.skew",
      "link.certificate",
      "memory.read-rate",
    ]);
    expect(checks[0]).toMatchObject({ status: "warn" });
    expect(must(checks[0], "the first check").summary).toMatch(/^no GPUs: nvidia-smi not found/);
  });

  it("grades the driver and every card's PCIe link when there are cards", async () => {
    const checks = await runDoctorChecks(deps(withCards));
    expect(checks.slice(0, 2).map((check) => [check.id, check.status])).toEqual([
      ["gpu.driver", "pass"],
      ["pcie.0000:2a:00.0", "pass"],
    ]);
  });

  it("warns, not crashes, when lspci is missing or a measurement throws", async () => {
    const noLspci: ExecFn = (file, args, options) =>
      file === "lspci"
        ? Promise.reject(new ExecError("spawn lspci ENOENT", "ENOENT", false))
        : withCards(file, args, options);
    const checks = await runDoctorChecks(
      deps(noLspci, { memoryReadRate: () => Promise.reject(new Error("no workers")) }),
    );
    const byId = new Map(checks.map((check) => [check.id, check]));
    expect(byId.get("pcie")).toMatchObject({ status: "warn" });
    expect(byId.get("pcie")?.fix).toMatch(/apt-get install pciutils/);
    expect(byId.get("memory.read-rate")?.summary).toMatch(/not measured: no workers/);
  });
});

describe("answerDoctor", () => {
  it("measures the skew against the control plane's time and reports the agent's installs", async () => {
    const reply = await answerDoctor(
      {
        exec: noDriver,
        nowMs: () => 1_000_000 + 90_000,
        dataDir,
        engineInstalls: () => [
          {
            $typeName: "llmgw.agent.v1.EngineInstall",
            engine: "llamacpp",
            version: "b1",
            phase: EngineInstallPhase.FAILED,
            message: "cmake: command not found",
            logTail: [],
            changedAtMs: 0n,
          },
        ],
        memoryReadRate: () => undefined,
      },
      1_000_000,
    );
    const byId = new Map((reply.checks ?? []).map((check) => [check.id, check]));
    expect(byId.get("clock.skew")).toMatchObject({
      status: DoctorCheckStatus.FAIL,
      summary: "clock 90.0 s ahead of the control plane",
    });
    expect(byId.get("engine.llamacpp")).toMatchObject({ status: DoctorCheckStatus.FAIL });
    expect(byId.get("memory.read-rate")?.summary).toMatch(/a few seconds after it starts/);
  });
});
