import { assessPcieLink, must } from "@llmgw/domain";
import { describe, expect, it } from "vitest";
import { listCaptureFiles, queryGpuCsv, readCaptureSections } from "../../test/nvidia-smi-captures";
import { ExecError, type ExecFn, type ExecResult } from "./exec";
import {
  discoverGpus,
  NVIDIA_SMI_QUERY_FIELDS,
  parseNvidiaSmiCsv,
  parseNvidiaSmiVersion,
  sampleGpus,
} from "./nvidia-smi";

const MIB = 1024n * 1024n;

interface Expected {
  name: string;
  memoryMiB: bigint;
  computeCapability: string;
  pcieGenMax: number;
  pcieWidthMax: number;
  migEnabled: boolean;
  powerLimitWatts: number;
  pciBusId: string;
  driverVersion: string;
  cudaVersion: string;
  idle: {
    genCurrent: number;
    utilization?: number;
    memoryUsedMiB: bigint;
    temperature: number;
    power: number;
  };
  load: {
    genCurrent: number;
    utilization?: number;
    memoryUsedMiB: bigint;
    temperature: number;
    power: number;
  };
}

// Values read by eye from the captures; every file and both phases are checked.
const EXPECTED: Record<string, Expected> = {
  "linux-x86_64__nvidia-geforce-rtx-2080-super__595.71.05.txt": {
    name: "NVIDIA GeForce RTX 2080 SUPER",
    memoryMiB: 8192n,
    computeCapability: "7.5",
    pcieGenMax: 3,
    pcieWidthMax: 16,
    migEnabled: false,
    powerLimitWatts: 250,
    pciBusId: "00000000:0C:00.0",
    driverVersion: "595.71.05",
    cudaVersion: "13.2",
    idle: { genCurrent: 1, utilization: 0, memoryUsedMiB: 214n, temperature: 40, power: 39.32 },
    load: { genCurrent: 3, utilization: 8, memoryUsedMiB: 819n, temperature: 45, power: 111.5 },
  },
  "linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01.txt": {
    name: "NVIDIA H100 80GB HBM3",
    memoryMiB: 81559n,
    computeCapability: "9.0",
    pcieGenMax: 5,
    pcieWidthMax: 16,
    migEnabled: false,
    powerLimitWatts: 700,
    pciBusId: "00000000:00:09.0",
    driverVersion: "590.48.01",
    cudaVersion: "13.1",
    idle: { genCurrent: 5, utilization: 0, memoryUsedMiB: 0n, temperature: 41, power: 69.85 },
    load: {
      genCurrent: 5,
      utilization: 100,
      memoryUsedMiB: 19818n,
      temperature: 59,
      power: 631.95,
    },
  },
  "linux-x86_64__nvidia-h200-mig__590.48.01.txt": {
    name: "NVIDIA H200",
    memoryMiB: 143771n,
    computeCapability: "9.0",
    pcieGenMax: 5,
    pcieWidthMax: 16,
    migEnabled: true,
    powerLimitWatts: 700,
    pciBusId: "00000000:83:00.0",
    driverVersion: "590.48.01",
    cudaVersion: "13.1",
    idle: {
      genCurrent: 5,
      utilization: undefined,
      memoryUsedMiB: 55n,
      temperature: 28,
      power: 78.28,
    },
    load: {
      genCurrent: 5,
      utilization: undefined,
      memoryUsedMiB: 16959n,
      temperature: 36,
      power: 295.01,
    },
  },
  "linux-x86_64__nvidia-h200__590.48.01.txt": {
    name: "NVIDIA H200",
    memoryMiB: 143771n,
    computeCapability: "9.0",
    pcieGenMax: 5,
    pcieWidthMax: 16,
    migEnabled: false,
    powerLimitWatts: 700,
    pciBusId: "00000000:83:00.0",
    driverVersion: "590.48.01",
    cudaVersion: "13.1",
    idle: { genCurrent: 5, utilization: 0, memoryUsedMiB: 0n, temperature: 28, power: 77.71 },
    load: { genCurrent: 5, utilization: 100, memoryUsedMiB: 32362n, temperature: 52, power: 627.4 },
  },
  "linux-x86_64__nvidia-l40s__595.80.txt": {
    name: "NVIDIA L40S",
    memoryMiB: 46068n,
    computeCapability: "8.9",
    pcieGenMax: 4,
    pcieWidthMax: 16,
    migEnabled: false,
    powerLimitWatts: 350,
    pciBusId: "00000000:01:00.0",
    driverVersion: "595.80",
    cudaVersion: "13.2",
    idle: { genCurrent: 4, utilization: 100, memoryUsedMiB: 0n, temperature: 63, power: 144.97 },
    load: { genCurrent: 4, utilization: 9, memoryUsedMiB: 1235n, temperature: 54, power: 110.23 },
  },
};

describe("parseNvidiaSmiCsv on the recorded captures", () => {
  it("has an expectation for every capture file", () => {
    expect(listCaptureFiles().sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const file of listCaptureFiles()) {
    for (const phase of ["idle", "load"] as const) {
      it(`${file} (${phase})`, () => {
        const expected = must(EXPECTED[file], `the expected values for ${file}`);
        const rows = parseNvidiaSmiCsv(queryGpuCsv(file, phase));
        expect(rows).toHaveLength(1);
        const [{ gpu, sample, driverVersion }] = rows as [(typeof rows)[0]];
        expect(gpu).toEqual({
          index: 0,
          uuid: "GPU-00000000-0000-0000-0000-000000000000",
          name: expected.name,
          memoryBytesTotal: expected.memoryMiB * MIB,
          computeCapability: expected.computeCapability,
          pcieGenMax: expected.pcieGenMax,
          pcieGenCardMax: expected.pcieGenMax,
          pcieGenCurrent: expected[phase].genCurrent,
          pcieWidthMax: expected.pcieWidthMax,
          pcieWidthCurrent: 16,
          pciBusId: expected.pciBusId,
          migEnabled: expected.migEnabled,
          powerLimitWatts: expected.powerLimitWatts,
        });
        expect(sample.memoryBytesUsed).toBe(expected[phase].memoryUsedMiB * MIB);
        expect(sample.temperatureCelsius).toBe(expected[phase].temperature);
        expect(sample.powerWatts).toBe(expected[phase].power);
        expect(sample.utilizationPercent).toBe(expected[phase].utilization);
        expect("utilizationPercent" in sample).toBe(expected[phase].utilization !== undefined);
        expect(driverVersion).toBe(expected.driverVersion);
      });

      it(`${file} (${phase}): no PCIe warning, whatever generation the link idles at`, () => {
        // Every captured card sits in a slot that gives it all it can take; the idle RTX 2080
        // SUPER reads Gen1 of Gen3, which is power saving, not a slow slot.
        const [row] = parseNvidiaSmiCsv(queryGpuCsv(file, phase));
        const link = row && assessPcieLink(row.gpu);
        expect(link?.isBelowCapability).toBe(false);
        expect(link?.carried.bandwidthGBps).toBe(link?.possible.bandwidthGBps);
      });
    }

    it(`${file}: nvidia-smi --version gives driver and CUDA versions`, () => {
      const version = readCaptureSections(file).find(
        (section) => section.command === "nvidia-smi --version",
      );
      const expected = must(EXPECTED[file], `the expected values for ${file}`);
      expect(
        parseNvidiaSmiVersion(must(version, "its nvidia-smi --version section").output),
      ).toEqual({
        driverVersion: expected.driverVersion,
        cudaVersion: expected.cudaVersion,
      });
    });
  }
});

describe("parseNvidiaSmiCsv edge cases", () => {
  it("takes the lesser of card and host PCIe generation and prefers gpucurrent", () => {
    const csv = [
      "index, uuid, pcie.link.gen.gpumax, pcie.link.gen.hostmax, pcie.link.gen.current, pcie.link.gen.gpucurrent",
      "0, GPU-a, 5, 4, 1, 2",
    ].join("\n");
    const [row] = parseNvidiaSmiCsv(csv);
    expect(row?.gpu.pcieGenMax).toBe(4);
    expect(row?.gpu.pcieGenCardMax).toBe(5);
    expect(row?.gpu.pcieGenCurrent).toBe(2);
  });

  it("reports a Gen5 card in a Gen4 slot, and one on half its lanes, idle or not", () => {
    const csv = [
      "uuid, pcie.link.gen.max, pcie.link.gen.gpumax, pcie.link.gen.hostmax, pcie.link.gen.gpucurrent, pcie.link.width.max, pcie.link.width.current",
      "GPU-a, 4, 5, 4, 1, 16, 16",
      "GPU-b, 4, 4, 5, 4, 16, 8",
    ].join("\n");
    const [slow, narrow] = parseNvidiaSmiCsv(csv).map((row) => assessPcieLink(row.gpu));
    expect(slow?.reason).toMatch(
      /the slot allows Gen4, the card Gen5; it carries 31.5 GB\/s of 63 GB\/s$/,
    );
    expect(narrow?.reason).toMatch(
      /x8 of its x16 lanes in use; it carries 15.8 GB\/s of 31.5 GB\/s$/,
    );
  });

  it("falls back to pcie.link.gen.current on drivers without gpucurrent", () => {
    const [row] = parseNvidiaSmiCsv(
      "uuid, pcie.link.gen.current, pcie.link.gen.max\nGPU-a, 3, 4\n",
    );
    expect(row?.gpu.pcieGenCurrent).toBe(3);
    expect(row?.gpu.pcieGenMax).toBe(4);
  });

  it("keeps every unreported value absent, never zero", () => {
    const csv = [
      "index, uuid, name, memory.total [MiB], memory.used [MiB], utilization.gpu [%], power.draw [W], temperature.gpu, pcie.link.width.max",
      "0, GPU-a, Card, [N/A], [Not Supported], N/A, , [Unknown Error], [N/A]",
    ].join("\n");
    const [row] = parseNvidiaSmiCsv(csv);
    expect(row?.sample).toEqual({ uuid: "GPU-a" });
    expect(row?.gpu.pcieWidthMax).toBeUndefined();
    expect(row?.gpu.powerLimitWatts).toBeUndefined();
  });

  it("honours quoted fields with commas and looks columns up by name in any order", () => {
    const csv = 'name, uuid, index\n"Card, Rev ""B""", GPU-b, 3\n';
    const [row] = parseNvidiaSmiCsv(csv);
    expect(row?.gpu).toMatchObject({ name: 'Card, Rev "B"', uuid: "GPU-b", index: 3 });
  });

  it("reads a shorter row from an older driver as missing trailing fields", () => {
    const [row] = parseNvidiaSmiCsv(
      "uuid, memory.used [MiB], utilization.gpu [%]\nGPU-a, 10 MiB\n",
    );
    expect(row?.sample).toEqual({ uuid: "GPU-a", memoryBytesUsed: 10n * MIB });
  });

  it("reads --format=csv,nounits values through the header unit", () => {
    const [row] = parseNvidiaSmiCsv(
      "uuid, memory.total [MiB], power.limit [W]\nGPU-a, 1024, 300.00\n",
    );
    expect(row?.gpu.memoryBytesTotal).toBe(1024n * MIB);
    expect(row?.gpu.powerLimitWatts).toBe(300);
  });

  it("rejects output with no uuid column", () => {
    expect(() => parseNvidiaSmiCsv("index, name\n0, Card\n")).toThrow(/no uuid column/);
  });
});

function fakeExec(
  answer: (args: readonly string[]) => ExecResult | Error,
): ExecFn & { calls: string[][] } {
  const calls: string[][] = [];
  const exec = (async (_file: string, args: readonly string[]) => {
    calls.push([...args]);
    const result = answer(args);
    if (result instanceof Error) throw result;
    return result;
  }) as ExecFn;
  return Object.assign(exec, { calls });
}

const H100 = "linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01.txt";

describe("discoverGpus", () => {
  it("returns no GPUs and a reason when nvidia-smi is absent", async () => {
    const exec = fakeExec(() => new ExecError("spawn nvidia-smi ENOENT", "ENOENT", false));
    const result = await discoverGpus(exec);
    expect(result.rows).toEqual([]);
    expect(result.reason).toMatch(/nvidia-smi not found/);
  });

  it("reports a timeout as the reason", async () => {
    const exec = fakeExec(
      () => new ExecError("nvidia-smi: timed out after 10 ms", undefined, true),
    );
    expect((await discoverGpus(exec, { timeoutMs: 10 })).reason).toMatch(/timed out/);
  });

  it("retries without a field the driver rejects and keeps the rest", async () => {
    const csv = queryGpuCsv(H100, "idle");
    const exec = fakeExec((args) => {
      if (args[0] === "--version")
        return {
          exitCode: 0,
          stdout: "DRIVER version : 590.48.01\nCUDA Version : 13.1\n",
          stderr: "",
        };
      if (must(args[0], "the query argument").includes("utilization.gpu")) {
        return {
          exitCode: 2,
          stdout: 'Field "utilization.gpu" is not a valid field to query.\n',
          stderr: "",
        };
      }
      return { exitCode: 0, stdout: csv, stderr: "" };
    });
    const result = await discoverGpus(exec);
    expect(result.rows).toHaveLength(1);
    expect(result.fields).not.toContain("utilization.gpu");
    expect(result.fields).toContain("compute_cap");
    expect(result).toMatchObject({ driverVersion: "590.48.01", cudaVersion: "13.1" });
    expect(exec.calls[0]).toEqual([
      `--query-gpu=${NVIDIA_SMI_QUERY_FIELDS.join(",")}`,
      "--format=csv",
    ]);
  });

  it("drops every optional field when the complaint names none", async () => {
    const exec = fakeExec((args) => {
      if (must(args[0], "the query argument").includes("compute_cap"))
        return { exitCode: 2, stdout: "", stderr: "is not a valid field to query" };
      return { exitCode: 0, stdout: "index, uuid\n0, GPU-a\n", stderr: "" };
    });
    const result = await discoverGpus(exec);
    expect(result.rows.map((row) => row.gpu.uuid)).toEqual(["GPU-a"]);
    expect(result.fields).not.toContain("utilization.gpu");
  });

  it("gives up with a reason when a required field is rejected", async () => {
    const exec = fakeExec(() => ({
      exitCode: 2,
      stdout: 'Field "uuid" is not a valid field to query.',
      stderr: "",
    }));
    expect((await discoverGpus(exec)).reason).toMatch(/required field: uuid/);
  });

  it("samples with the accepted fields only", async () => {
    const exec = fakeExec(() => ({ exitCode: 0, stdout: queryGpuCsv(H100, "load"), stderr: "" }));
    const samples = await sampleGpus(exec, ["uuid", "memory.used", "name", "utilization.gpu"]);
    expect(exec.calls[0]?.[0]).toBe("--query-gpu=uuid,memory.used,utilization.gpu");
    expect(samples[0]).toMatchObject({ utilizationPercent: 100, memoryBytesUsed: 19818n * MIB });
  });
});
