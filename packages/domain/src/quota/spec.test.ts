import { describe, expect, it } from "vitest";
import { formatQuotaAmounts, parseQuotaAmounts } from "./spec";

describe("parseQuotaAmounts", () => {
  it("reads cards per class, cores and memory", () => {
    expect(parseQuotaAmounts("gpus=H100-80G:16,gpus=L40S:4,cores=64,memory=512GiB")).toEqual({
      ok: true,
      amounts: { gpus: { "H100-80G": 16, L40S: 4 }, cores: 64, memoryGb: 512 },
    });
  });

  it("reads memory in TiB, GB or a bare number of GiB", () => {
    const memory = (text: string) => {
      const result = parseQuotaAmounts(`memory=${text}`);
      return result.ok ? result.amounts.memoryGb : result.why;
    };
    expect(memory("2TiB")).toBe(2048);
    expect(memory("100GB")).toBe(100);
    expect(memory("96")).toBe(96);
    expect(memory("1.5 tib")).toBe(1536);
  });

  it("allows spaces around parts and an empty text", () => {
    expect(parseQuotaAmounts(" cores = 8 , gpus = A100-40G : 2 ")).toEqual({
      ok: true,
      amounts: { gpus: { "A100-40G": 2 }, cores: 8 },
    });
    expect(parseQuotaAmounts("  ")).toEqual({ ok: true, amounts: { gpus: {} } });
  });

  it.each([
    ["cores=-4", "cores=-4", /negative/],
    ["gpus=H100-80G:-1", "gpus=H100-80G:-1", /negative/],
    ["memory=-5GiB", "memory=-5GiB", /negative/],
    ["cores=8,disks=4", "disks=4", /"disks" is not a resource/],
    ["gpus=H100-80G:2,gpus=H100-80G:4", "gpus=H100-80G:4", /H100-80G is named twice/],
    ["cores=1,cores=2", "cores=2", /cores is named twice/],
    ["memory=1GiB,memory=2GiB", "memory=2GiB", /memory is named twice/],
    ["gpus=16", "gpus=16", /gpus=CLASS:COUNT/],
    ["gpus=H100-80G:1.5", "gpus=H100-80G:1.5", /whole number/],
    ["memory=5PB", "memory=5PB", /GiB, TiB or GB/],
    ["cores=lots", "cores=lots", /cores must be a number/],
    ["cores", "cores", /give cores a value/],
    ["cores=1,,memory=2", "", /empty part/],
  ])("refuses %s, naming %s", (text, part, why) => {
    const result = parseQuotaAmounts(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.part).toBe(part);
    expect(result.why).toMatch(why);
  });
});

it("reads a class named like an object's own property as a class", () => {
  expect(parseQuotaAmounts("gpus=constructor:1")).toEqual({
    ok: true,
    amounts: { gpus: { constructor: 1 } },
  });
});

describe("formatQuotaAmounts", () => {
  it("writes what parseQuotaAmounts reads back", () => {
    const amounts = { gpus: { L40S: 4, "H100-80G": 16 }, cores: 64, memoryGb: 1536 };
    const text = formatQuotaAmounts(amounts);
    expect(text).toBe("gpus=H100-80G:16,gpus=L40S:4,cores=64,memory=1536GiB");
    expect(parseQuotaAmounts(text)).toEqual({ ok: true, amounts });
  });

  it("writes nothing for no amounts", () => {
    expect(formatQuotaAmounts({ gpus: {} })).toBe("");
  });
});
