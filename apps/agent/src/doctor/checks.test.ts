import { must } from "@llmgw/domain";
import { createCa } from "@llmgw/pki";
import { describe, expect, it } from "vitest";
import { worstStatus } from "./check";
import {
  checkClockSkew,
  checkDiskRoom,
  checkEngineInstalls,
  checkGpuDriver,
  checkLinkCertificate,
  checkMemoryReadRate,
} from "./checks";

const GIB = 2 ** 30;
const DAY_MS = 24 * 3_600_000;

describe("checkGpuDriver", () => {
  it("says plainly that a node without nvidia-smi has no GPUs, as a warning", () => {
    const check = checkGpuDriver({ missing: "nvidia-smi not found", gpuCount: 0 });
    expect(check).toMatchObject({ id: "gpu.driver", status: "warn" });
    expect(check.summary).toBe(
      "no GPUs: nvidia-smi not found; this node can serve CPU engines only",
    );
  });

  it("grades the driver against the vLLM builds: 590 passes, 575 warns, 550 fails", () => {
    // Versions from the project's nvidia-smi captures (590.48.01) and the builds' minimums.
    const at = (driverVersion: string) =>
      checkGpuDriver({ driverVersion, cudaVersion: "13.1", gpuCount: 8 });
    expect(at("590.48.01").status).toBe("pass");
    expect(at("590.48.01").summary).toBe(
      "8 GPUs, driver 590.48.01, CUDA 13.1: runs vLLM's CUDA 13 build",
    );
    expect(at("575.57.08").status).toBe("warn");
    expect(at("550.54.15").status).toBe("fail");
    expect(at("550.54.15").fix).toMatch(/upgrade the NVIDIA driver to 580/);
  });
});

describe("checkDiskRoom", () => {
  const disk = (freeGiB: number) =>
    checkDiskRoom({
      dir: "/var/lib/llmgw/cache",
      freeBytes: freeGiB * GIB,
      totalBytes: 2000 * GIB,
    });

  it("fails under 20 GiB, warns under 100 GiB and names the directory and the remedy", () => {
    expect(disk(19).status).toBe("fail");
    expect(disk(20).status).toBe("warn");
    expect(disk(99).status).toBe("warn");
    expect(disk(100).status).toBe("pass");
    expect(disk(19).summary).toMatch(
      /^model cache \/var\/lib\/llmgw\/cache: 19\.0 GiB free of 2000\.0 GiB/,
    );
    expect(disk(19).fix).toMatch(/llmgw ctl reclaim --collect/);
  });
});

describe("checkClockSkew", () => {
  it("passes under 2 s, warns from 2 s and fails from 60 s, either way", () => {
    expect(checkClockSkew(1_999).status).toBe("pass");
    expect(checkClockSkew(-2_000).status).toBe("warn");
    expect(checkClockSkew(-2_000).summary).toBe("clock 2.0 s behind the control plane");
    expect(checkClockSkew(60_000).status).toBe("fail");
    expect(checkClockSkew(60_000).fix).toMatch(/chrony/);
  });

  it("warns with the reason when the clock could not be compared", () => {
    const check = checkClockSkew(null, "control plane not reached");
    expect(check.status).toBe("warn");
    expect(check.summary).toMatch(/control plane not reached/);
  });
});

describe("checkLinkCertificate", () => {
  it("passes a valid certificate, warns within 7 days of expiry, fails once expired", async () => {
    const { certPem: cert } = await createCa("node-under-test", 30);
    const now = Date.now();
    expect(checkLinkCertificate(cert, now).status).toBe("pass");
    expect(checkLinkCertificate(cert, now).summary).toMatch(/CN=node-under-test, valid until 20/);
    expect(checkLinkCertificate(cert, now + 25 * DAY_MS).status).toBe("warn");
    const expired = checkLinkCertificate(cert, now + 31 * DAY_MS);
    expect(expired.status).toBe("fail");
    expect(expired.fix).toMatch(/join the node again/);
  });

  it("fails a node that has not joined or whose certificate is not PEM", () => {
    expect(checkLinkCertificate(null, 0).summary).toMatch(/has not joined/);
    expect(checkLinkCertificate("-----BEGIN CERTIFICATE-----\nxx\n", 0)).toMatchObject({
      status: "fail",
      summary: "the node's certificate (pki/node.crt) cannot be read",
    });
  });
});

describe("checkEngineInstalls and checkMemoryReadRate", () => {
  it("fails a failed install with its reason and warns of one under way", () => {
    const checks = checkEngineInstalls([
      { engine: "llamacpp", state: "failed", message: "cmake: command not found" },
      { engine: "vllm", state: "installing", message: "" },
    ]);
    expect(checks.map((c) => [c.id, c.status])).toEqual([
      ["engine.llamacpp", "fail"],
      ["engine.vllm", "warn"],
    ]);
    expect(must(checks[0], "the first check").summary).toBe(
      "llamacpp install failed: cmake: command not found",
    );
    expect(worstStatus(checks)).toBe("fail");
  });

  it("warns of a memory read rate under 10 GB/s", () => {
    expect(checkMemoryReadRate(9e9).status).toBe("warn");
    expect(checkMemoryReadRate(150e9)).toMatchObject({
      status: "pass",
      summary: "memory reads at 150.0 GB/s",
    });
  });
});
