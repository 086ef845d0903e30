import { describe, expect, it } from "vitest";
import { normaliseGpuClass, parseComputeCapability } from "./gpu-class";

describe("normaliseGpuClass", () => {
  it.each([
    ["NVIDIA H100 80GB HBM3", "H100-80G"],
    ["NVIDIA H100 PCIe", "H100"],
    ["NVIDIA H200", "H200"],
    ["NVIDIA L40S", "L40S"],
    ["NVIDIA GeForce RTX 2080 SUPER", "RTX-2080-SUPER"],
    ["NVIDIA A100-SXM4-80GB", "A100-80G"],
    ["NVIDIA A100-PCIE-40GB", "A100-40G"],
    ["Tesla V100-SXM2-16GB", "V100-16G"],
    ["Quadro RTX 6000", "QUADRO-RTX-6000"],
    ["NVIDIA RTX 6000 Ada Generation", "RTX-6000-ADA-GENERATION"],
  ])("reads %s as %s", (name, gpuClass) => {
    expect(normaliseGpuClass(name)).toBe(gpuClass);
  });

  it("names a MIG instance after its parent and profile, from NVML's name or from the parts", () => {
    expect(normaliseGpuClass("NVIDIA H200 MIG 1g.18gb")).toBe("H200-MIG-1g.18gb");
    expect(normaliseGpuClass("NVIDIA H200", "3g.71gb")).toBe("H200-MIG-3g.71gb");
    expect(normaliseGpuClass("NVIDIA A100-SXM4-40GB MIG 1g.5gb")).toBe("A100-40G-MIG-1g.5gb");
  });

  it("gives two MIG sizes of one card different classes, and neither the whole card's", () => {
    const small = normaliseGpuClass("NVIDIA H200 MIG 1g.18gb");
    const large = normaliseGpuClass("NVIDIA H200 MIG 2g.35gb");
    expect(new Set([small, large, normaliseGpuClass("NVIDIA H200")]).size).toBe(3);
  });

  it("is stable under extra spaces and case", () => {
    expect(normaliseGpuClass("  nvidia   h100  80gb hbm3 ")).toBe("H100-80G");
  });
});

describe("parseComputeCapability", () => {
  it("reads nvidia-smi's compute_cap and refuses what is not a number", () => {
    expect(parseComputeCapability("8.9")).toBe(8.9);
    expect(parseComputeCapability("[N/A]")).toBeUndefined();
  });
});
