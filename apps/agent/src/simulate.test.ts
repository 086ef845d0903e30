import { describe, expect, it } from "vitest";
import {
  createSimulation,
  SIM_TEMPERATURE_BUSY_C,
  SIM_TEMPERATURE_IDLE_C,
  SIMULATION_PROFILE_NAMES,
  simulatedGpuUuid,
} from "./simulate";

const MIB = 1024n * 1024n;

describe("simulation profiles", () => {
  it("h100x8 is eight H100 80GB HBM3 cards on PCIe gen5 x16", () => {
    const sim = createSimulation("h100x8", "node-a", 1);
    expect(sim.gpus).toHaveLength(8);
    for (const gpu of sim.gpus) {
      expect(gpu).toMatchObject({
        name: "NVIDIA H100 80GB HBM3",
        memoryBytesTotal: 81559n * MIB,
        computeCapability: "9.0",
        pcieGenMax: 5,
        pcieWidthMax: 16,
        migEnabled: false,
      });
    }
    expect(sim.gpus.map((gpu) => gpu.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("l40sx4 is four L40S cards, cc 8.9, gen4 x16", () => {
    const sim = createSimulation("l40sx4", "node-a", 1);
    expect(sim.gpus).toHaveLength(4);
    expect(sim.gpus[3]).toMatchObject({
      name: "NVIDIA L40S",
      memoryBytesTotal: 46068n * MIB,
      computeCapability: "8.9",
      pcieGenMax: 4,
      pcieWidthMax: 16,
    });
  });

  it("h200x8 has eight H200 and cpu has none", () => {
    expect(createSimulation("h200x8", "n", 1).gpus.map((gpu) => gpu.name)).toEqual(
      Array(8).fill("NVIDIA H200"),
    );
    const cpu = createSimulation("cpu", "n", 1);
    expect(cpu.gpus).toEqual([]);
    expect(cpu.step().gpus).toEqual([]);
    expect(cpu.host.driverVersion).toBeUndefined();
  });

  it("names the allowed profiles when given an unknown one", () => {
    expect(() => createSimulation("a100x2", "n", 1)).toThrow(
      /unknown simulation profile "a100x2"; use one of h100x8, h200x8, l40sx4/,
    );
  });
});

describe("simulated identity", () => {
  it("derives unique, stable uuids from the node name", () => {
    const a = createSimulation("h100x8", "node-a", 1).gpus.map((gpu) => gpu.uuid);
    const again = createSimulation("h100x8", "node-a", 99).gpus.map((gpu) => gpu.uuid);
    const b = createSimulation("h100x8", "node-b", 1).gpus.map((gpu) => gpu.uuid);
    expect(again).toEqual(a);
    expect(new Set([...a, ...b]).size).toBe(16);
    expect(a[0]).toMatch(/^GPU-sim-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(simulatedGpuUuid("node-a", "h100x8", 0)).toBe(a[0]);
  });
});

describe("simulated load", () => {
  it("is the same sequence for the same seed and differs for another", () => {
    const run = (seed: number) => {
      const sim = createSimulation("mixed", "node-a", seed);
      return Array.from({ length: 50 }, () => sim.step());
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
  });

  it("stays within physical bounds over a long run, for every profile", () => {
    // Collects violations instead of asserting per value: 2000 steps × 8 cards is many checks.
    const violations: string[] = [];
    const check = (ok: boolean, what: () => string) => {
      if (!ok && violations.length < 5) violations.push(what());
    };
    for (const profile of SIMULATION_PROFILE_NAMES) {
      const sim = createSimulation(profile, "node-a", 42);
      for (let step = 0; step < 2000; step++) {
        const { gpus, host } = sim.step();
        gpus.forEach((sample, index) => {
          const gpu = sim.gpus[index]!;
          const where = () =>
            `${profile} step ${step} gpu ${index}: ${JSON.stringify(sample, (_k, v) => (typeof v === "bigint" ? String(v) : v))}`;
          check(sample.uuid === gpu.uuid, () => `uuid ${where()}`);
          check(
            sample.utilizationPercent! >= 0 && sample.utilizationPercent! <= 100,
            () => `utilisation ${where()}`,
          );
          check(
            sample.memoryBytesUsed! >= 0n && sample.memoryBytesUsed! <= gpu.memoryBytesTotal,
            () => `memory ${where()}`,
          );
          check(
            sample.temperatureCelsius! >= SIM_TEMPERATURE_IDLE_C - 0.5 &&
              sample.temperatureCelsius! <= SIM_TEMPERATURE_BUSY_C + 0.5,
            () => `temperature ${where()}`,
          );
          check(
            sample.powerWatts! > 0 && sample.powerWatts! <= gpu.powerLimitWatts!,
            () => `power ${where()}`,
          );
        });
        check(
          host.cpuUtilizationPercent! >= 0 && host.cpuUtilizationPercent! <= 100,
          () => `host cpu ${profile} ${step}`,
        );
        check(
          host.memoryBytesUsed! <= sim.host.memoryBytesTotal,
          () => `host memory ${profile} ${step}`,
        );
      }
    }
    expect(violations).toEqual([]);
  });

  it("moves: utilisation wanders over most of its range and temperature follows it", () => {
    const sim = createSimulation("h100x8", "node-a", 3);
    const pairs: { utilization: number; temperature: number }[] = [];
    for (let i = 0; i < 3000; i++) {
      const sample = sim.step().gpus[0]!;
      pairs.push({
        utilization: sample.utilizationPercent!,
        temperature: sample.temperatureCelsius!,
      });
    }
    const utilizations = pairs.map((pair) => pair.utilization);
    expect(Math.max(...utilizations) - Math.min(...utilizations)).toBeGreaterThan(60);
    const hot = pairs.filter((pair) => pair.utilization > 80).map((pair) => pair.temperature);
    const cold = pairs.filter((pair) => pair.utilization < 20).map((pair) => pair.temperature);
    const mean = (values: number[]) =>
      values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(mean(hot)).toBeGreaterThan(65);
    expect(mean(cold)).toBeLessThan(45);
  });
});
