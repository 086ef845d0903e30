import { must } from "@llmgw/domain";
import { describe, expect, it } from "vitest";
import type { GpuSampleValues } from "./discovery/nvidia-smi";
import {
  createSimulation,
  SIM_TEMPERATURE_BUSY_C,
  SIM_TEMPERATURE_IDLE_C,
  SIM_SEQUENCES_SATURATING,
  SIM_UTILIZATION_BUSY_FLOOR,
  SIM_UTILIZATION_IDLE_MAX,
  SIMULATION_PROFILE_NAMES,
  simulatedGpuUuid,
  utilizationTarget,
} from "./simulate";

const MIB = 1024n * 1024n;

/** Whether a sample's field is there and within [min, max]; a missing field is a violation. */
function within<T extends number | bigint>(value: T | undefined, min: T, max: T): boolean {
  return value !== undefined && value >= min && value <= max;
}

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

  it("puts the last card of an L40S node in a ×8 slot, so the fleet shows a PCIe warning", () => {
    const sim = createSimulation("l40sx4", "node-a", 1);
    expect(sim.gpus.map((gpu) => gpu.pcieWidthCurrent)).toEqual([16, 16, 16, 8]);
    expect(
      createSimulation("h100x8", "node-a", 1).gpus.every((gpu) => gpu.pcieWidthCurrent === 16),
    ).toBe(true);
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
          const gpu = must(sim.gpus[index], `card ${index}`);
          const where = () =>
            `${profile} step ${step} gpu ${index}: ${JSON.stringify(sample, (_k, v) => (typeof v === "bigint" ? String(v) : v))}`;
          check(sample.uuid === gpu.uuid, () => `uuid ${where()}`);
          check(within(sample.utilizationPercent, 0, 100), () => `utilisation ${where()}`);
          check(
            within(sample.memoryBytesUsed, 0n, gpu.memoryBytesTotal),
            () => `memory ${where()}`,
          );
          // As nvidia-smi reports it (memory.used [MiB]): whole MiB, never a part of one.
          check(
            sample.memoryBytesUsed !== undefined && sample.memoryBytesUsed % MIB === 0n,
            () => `memory not in whole MiB ${where()}`,
          );
          check(
            within(
              sample.temperatureCelsius,
              SIM_TEMPERATURE_IDLE_C - 0.5,
              SIM_TEMPERATURE_BUSY_C + 0.5,
            ),
            () => `temperature ${where()}`,
          );
          check(
            sample.powerWatts !== undefined &&
              sample.powerWatts > 0 &&
              gpu.powerLimitWatts !== undefined &&
              sample.powerWatts <= gpu.powerLimitWatts,
            () => `power ${where()}`,
          );
        });
        check(within(host.cpuUtilizationPercent, 0, 100), () => `host cpu ${profile} ${step}`);
        check(
          host.memoryBytesUsed !== undefined && host.memoryBytesUsed <= sim.host.memoryBytesTotal,
          () => `host memory ${profile} ${step}`,
        );
      }
    }
    expect(violations).toEqual([]);
  });

  it("idles below 5 % without an engine, and follows the engine's load when there is one", () => {
    const sim = createSimulation("h100x8", "node-a", 3);
    const utilizationOfCard0 = (gpus: readonly GpuSampleValues[]) =>
      must(must(gpus[0], "card 0").utilizationPercent, "the utilisation of card 0");
    const idle = Array.from({ length: 20 }, () => utilizationOfCard0(sim.step().gpus));
    expect(Math.max(...idle)).toBeLessThanOrEqual(SIM_UTILIZATION_IDLE_MAX);
    // Idle samples still move from beat to beat, so a live view has something to show.
    expect(new Set(idle).size).toBeGreaterThan(5);

    const busy = new Map([[0, { runningRequests: 8, waitingRequests: 2, kvCacheUsageRatio: 0.6 }]]);
    const pairs = Array.from({ length: 30 }, () => sim.step(busy).gpus);
    const [busyCard, idleCard] = must(pairs.at(-1), "the last samples");
    const busyGpu = must(sim.gpus[0], "card 0");
    expect(busyCard?.utilizationPercent).toBeGreaterThan(90);
    // The neighbouring card has no engine and stays idle.
    expect(idleCard?.utilizationPercent).toBeLessThanOrEqual(SIM_UTILIZATION_IDLE_MAX);
    expect(busyCard?.temperatureCelsius).toBeGreaterThan(70);
    expect(idleCard?.temperatureCelsius).toBeLessThan(35);
    expect(Number(busyCard?.memoryBytesUsed) / Number(busyGpu.memoryBytesTotal)).toBeCloseTo(
      0.45 + 0.45 * 0.6,
      2,
    );
  });

  it("scales utilisation with the sequences in flight up to saturation", () => {
    const demand = (running: number) => ({
      runningRequests: running,
      waitingRequests: 0,
      kvCacheUsageRatio: 0,
    });
    expect(utilizationTarget(undefined)).toBeLessThan(5);
    expect(utilizationTarget(demand(0))).toBeLessThan(5);
    expect(utilizationTarget(demand(1))).toBeGreaterThanOrEqual(SIM_UTILIZATION_BUSY_FLOOR);
    expect(utilizationTarget(demand(4))).toBeGreaterThan(utilizationTarget(demand(1)));
    expect(utilizationTarget(demand(SIM_SEQUENCES_SATURATING))).toBe(100);
    expect(utilizationTarget(demand(50))).toBe(100);
  });
});
