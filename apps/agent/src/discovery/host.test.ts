import { describe, expect, it } from "vitest";
import { createHostLoadSampler, discoverHost, type HostProbe } from "./host";

function probe(overrides: Partial<HostProbe> = {}) {
  let busy = 0;
  let idle = 0;
  const fake: HostProbe & { tick(busyMs: number, idleMs: number): void } = {
    cpus: () =>
      [0, 1].map(() => ({
        model: " Test CPU 9000 ",
        times: { user: busy, nice: 0, sys: 0, idle, irq: 0 },
      })),
    totalmem: () => 64 * 2 ** 30,
    freemem: () => 16 * 2 ** 30,
    statfs: async () => ({ bsize: 4096, blocks: 1000, bavail: 250 }),
    platform: () => "linux",
    release: () => "6.1.0",
    arch: () => "x64",
    tick(busyMs, idleMs) {
      busy += busyMs;
      idle += idleMs;
    },
    ...overrides,
  };
  return fake;
}

describe("discoverHost", () => {
  it("reads CPU, memory, the data dir's disk, OS and the driver versions given", async () => {
    const host = await discoverHost(
      "/data",
      { driverVersion: "590.48.01", cudaVersion: "13.1" },
      probe(),
    );
    expect(host).toEqual({
      cpuModel: "Test CPU 9000",
      cpuCores: 2,
      memoryBytesTotal: 64n * 2n ** 30n,
      diskBytesTotal: 4096n * 1000n,
      diskBytesFree: 4096n * 250n,
      os: "linux 6.1.0",
      arch: "x64",
      driverVersion: "590.48.01",
      cudaVersion: "13.1",
    });
  });

  it("reports an unreadable disk as zero size instead of failing", async () => {
    const host = await discoverHost(
      "/gone",
      {},
      probe({ statfs: async () => Promise.reject(new Error("ENOENT")) }),
    );
    expect(host.diskBytesTotal).toBe(0n);
    expect(host.driverVersion).toBeUndefined();
  });
});

describe("createHostLoadSampler", () => {
  it("has no CPU figure on the first sample, then the busy share since the last one", async () => {
    const fake = probe();
    const sample = createHostLoadSampler("/data", fake);
    const first = await sample();
    expect(first.cpuUtilizationPercent).toBeUndefined();
    expect(first.memoryBytesUsed).toBe(48n * 2n ** 30n);
    expect(first.diskBytesFree).toBe(4096n * 250n);
    fake.tick(300, 100);
    expect((await sample()).cpuUtilizationPercent).toBe(75);
    fake.tick(0, 500);
    expect((await sample()).cpuUtilizationPercent).toBe(0);
  });
});
