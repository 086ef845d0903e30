import { describe, expect, it } from "vitest";
import { followLogs, newLines } from "./follow";

describe("newLines", () => {
  it("returns only what came after the previous answer", () => {
    expect(newLines(["a", "b", "c"], ["b", "c", "d", "e"])).toEqual(["d", "e"]);
    expect(newLines(["a", "b"], ["a", "b"])).toEqual([]);
    expect(newLines([], ["a"])).toEqual(["a"]);
  });

  it("prefers the longest overlap when lines repeat", () => {
    expect(newLines(["x", "x"], ["x", "x", "y"])).toEqual(["y"]);
    expect(newLines(["ok", "tick", "ok"], ["tick", "ok", "tick"])).toEqual(["tick"]);
  });

  it("treats everything as new when more arrived than one answer holds", () => {
    expect(newLines(["a", "b"], ["x", "y"])).toEqual(["x", "y"]);
  });
});

describe("followLogs", () => {
  it("polls at the interval and writes each new line once", async () => {
    const answers = [
      ["1", "2", "3"],
      ["2", "3", "4"],
      ["3", "4", "5", "6"],
    ];
    const written: string[][] = [];
    const sleeps: number[] = [];
    await followLogs(["1", "2"], {
      fetchLines: async () => answers.shift() ?? [],
      write: (lines) => written.push(lines),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      isStopped: () => answers.length === 0,
      intervalMs: 2_000,
    });
    expect(written).toEqual([["3"], ["4"], ["5", "6"]]);
    expect(sleeps).toEqual([2_000, 2_000, 2_000]);
  });
});
