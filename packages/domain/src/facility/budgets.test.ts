import { describe, expect, it } from "vitest";
import { parsePowerBudgets } from "./budgets";

describe("facility.budgets", () => {
  it("reads domain:watts pairs", () => {
    expect(parsePowerBudgets("rack=r12:5000, pdu=p7:12000")).toEqual({
      ok: true,
      budgets: [
        { domain: "rack=r12", watts: 5000 },
        { domain: "pdu=p7", watts: 12000 },
      ],
    });
    expect(parsePowerBudgets("")).toEqual({ ok: true, budgets: [] });
  });

  it("names every bad entry", () => {
    const parsed = parsePowerBudgets("rack=r12, shelf=1:10, pdu=p1:-5");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.errors).toHaveLength(3);
      expect(parsed.errors.join("\n")).toMatch(
        /"rack=r12" has no watts[\s\S]*shelf[\s\S]*pdu=p1:-5/,
      );
    }
  });
});
