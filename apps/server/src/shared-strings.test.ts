import { describe, expect, it } from "vitest";
import { SharedStrings } from "./shared-strings";

describe("SharedStrings", () => {
  it("keeps one entry per distinct value and answers the value it was given", () => {
    const strings = new SharedStrings();
    const names = ["NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3", "NVIDIA L40S"];
    expect(names.map((name) => strings.share(name))).toEqual(names);
    expect(strings.size).toBe(2);
  });

  it("starts again empty once full, so values seen once cannot grow it without end", () => {
    const strings = new SharedStrings(3);
    for (let at = 0; at < 100; at += 1) {
      expect(strings.share(`key-${at}`)).toBe(`key-${at}`);
      expect(strings.size).toBeLessThanOrEqual(3);
    }
  });

  it("shares the strings of rows in place and leaves everything else as it was", () => {
    const seenAt = new Date(1_700_000_000_000);
    const rows = [
      {
        id: "n1",
        host: { os: "linux", cores: 64 },
        labels: { rack: "r1" },
        engines: ["vllm"],
        seenAt,
      },
      {
        id: "n2",
        host: { os: "linux", cores: 64 },
        labels: { rack: "r1" },
        engines: ["vllm"],
        seenAt: null,
      },
    ];
    const expected = structuredClone(rows);
    const strings = new SharedStrings();
    expect(strings.shareAll(rows)).toBe(rows);
    expect(rows).toEqual(expected);
    expect(rows[0]?.seenAt).toBe(seenAt);
    // n1, n2, linux, r1, vllm
    expect(strings.size).toBe(5);
  });
});
