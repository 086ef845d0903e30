import { describe, expect, it } from "vitest";
import { failuresByFault } from "./report";

const fault = (atS: number, kind: string) => ({ atS, kind, what: `${kind} at ${atS}` });

describe("failuresByFault", () => {
  it("lays each failure against the last fault before it, with when the first and last ended", () => {
    const faults = [fault(120, "kill-agent"), fault(240, "stop-agent"), fault(360, "full-disk")];
    const rows = failuresByFault(faults, [250, 123.4, 130, 241, 500]);
    expect(rows.map((r) => [r.fault.kind, r.failed])).toEqual([
      ["kill-agent", "2 (2:03–2:10)"],
      ["stop-agent", "2 (4:01–4:10)"],
      ["full-disk", "1 (8:20–8:20)"],
    ]);
  });

  it("gives failures before the first fault a row of their own, and no such row without them", () => {
    const faults = [fault(60, "restart-store")];
    expect(failuresByFault(faults, [10]).map((r) => [r.fault.kind, r.failed])).toEqual([
      ["(none yet)", "1 (0:10–0:10)"],
      ["restart-store", "0"],
    ]);
    expect(failuresByFault(faults, []).map((r) => r.failed)).toEqual(["0"]);
  });
});
