import { describe, expect, it } from "vitest";
import { parseAutogroupNice } from "./process-group.ts";

describe("parseAutogroupNice", () => {
  it("reads the nice value of an autogroup", () => {
    expect(parseAutogroupNice("/autogroup-12224 nice 0\n")).toBe(0);
    expect(parseAutogroupNice("/autogroup-7 nice -15\n")).toBe(-15);
    expect(parseAutogroupNice("/autogroup-9 nice 10\n")).toBe(10);
  });

  // CI's test runner ran in the root task group (its file is empty, as PID 1's is), which weighs
  // as nice 0: reading it as "no autogroups" made a child left at 0 look different from its parent.
  it("reads the root task group's empty file as nice 0", () => {
    expect(parseAutogroupNice("")).toBe(0);
    expect(parseAutogroupNice("\n")).toBe(0);
  });

  it("answers undefined for text it does not know", () => {
    expect(parseAutogroupNice("autogroups are off")).toBeUndefined();
  });
});
