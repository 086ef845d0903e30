import { describe, expect, it } from "vitest";
import { activeWeightBytes, CPU_DECODE_EFFICIENCY, cpuTokensPerSecond } from "./cpu-speed";

describe("cpuTokensPerSecond", () => {
  it("is the read rate over the bytes one token reads, at the efficiency constant", () => {
    // 100 GB/s reading 4 GB a token: 25 tokens/s at full rate.
    expect(cpuTokensPerSecond(100e9, 4e9)).toBe(Math.round(25 * CPU_DECODE_EFFICIENCY * 10) / 10);
  });

  it("is unknown until the rate is measured, and for nothing to read", () => {
    expect(cpuTokensPerSecond(undefined, 4e9)).toBeUndefined();
    expect(cpuTokensPerSecond(0, 4e9)).toBeUndefined();
    expect(cpuTokensPerSecond(100e9, 0)).toBeUndefined();
  });
});

describe("activeWeightBytes", () => {
  it("scales a mixture of experts' weights to the active share", () => {
    expect(activeWeightBytes(470e9, { total: 235e9, active: 22e9 })).toBe(44e9);
    expect(activeWeightBytes(16e9, { total: 8e9, active: 8e9 })).toBe(16e9);
  });
});
