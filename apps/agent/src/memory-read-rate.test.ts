import { describe, expect, it, vi } from "vitest";
import { buildHeartbeat, type Inventory } from "./inventory";
import { createLogger, LogRing } from "./log-ring";
import { measureMemoryReadRate, startMemoryReadProbe } from "./memory-read-rate";

function logger() {
  const ring = new LogRing();
  return { ring, logger: createLogger({ ring, write: () => {}, nowMs: () => 0 }) };
}

describe("measureMemoryReadRate", () => {
  it("measures a read rate in worker threads, adding up every worker's", async () => {
    const options = { bufferBytes: 8 * 2 ** 20, durationMs: 60 };
    const one = await measureMemoryReadRate({ ...options, workers: 1 });
    // At the lowest priority on a busy test machine the rate can be low, but never nothing, and
    // no machine reads a terabyte a second from one thread.
    expect(one).toBeGreaterThan(1e6);
    expect(one).toBeLessThan(1e12);
    expect(await measureMemoryReadRate({ ...options, workers: 2 })).toBeGreaterThan(1e6);
  });
});

describe("startMemoryReadProbe", () => {
  it("is unknown until the background measurement ends, then keeps its answer", async () => {
    vi.useFakeTimers();
    try {
      const { ring, logger: log } = logger();
      const probe = startMemoryReadProbe(log, async () => 42e9, 1_000);
      expect(probe.current()).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(probe.current()).toBe(42e9);
      expect(ring.snapshot().join("\n")).toMatch(/memory read rate measured gbPerSecond=42/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("logs a failed measurement and leaves the rate unknown", async () => {
    vi.useFakeTimers();
    try {
      const { ring, logger: log } = logger();
      const probe = startMemoryReadProbe(
        log,
        async () => Promise.reject(new Error("no memory")),
        10,
      );
      await vi.advanceTimersByTimeAsync(10);
      expect(probe.current()).toBeUndefined();
      expect(ring.snapshot().join("\n")).toMatch(
        /warn memory read rate not measured why="no memory"/,
      );
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("buildHeartbeat", () => {
  it("carries the measured read rate once there is one", async () => {
    const inventory: Inventory = {
      simulationProfile: undefined,
      gpus: [],
      host: {
        ...{ cpuModel: "x", cpuCores: 4, os: "linux", arch: "x64" },
        ...{ memoryBytesTotal: 1n, diskBytesTotal: 1n, diskBytesFree: 1n },
      },
      engines: [],
      sample: async () => ({ gpus: [], host: {} }),
    };
    expect((await buildHeartbeat(inventory, 5e10)).memoryReadBytesPerSecond).toBe(5e10);
    expect((await buildHeartbeat(inventory)).memoryReadBytesPerSecond).toBeUndefined();
  });
});
