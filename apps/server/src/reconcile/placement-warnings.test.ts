import { describe, expect, it } from "vitest";
import { PLACEMENT_WARNING_REPEAT_MS, PlacementWarnings } from "./placement-warnings";

describe("placement warnings", () => {
  it("logs a reason once, again when it changes, and again after ten minutes", () => {
    const warnings = new PlacementWarnings();
    expect(warnings.shouldLog("m", "no cards", 0)).toBe(true);
    expect(warnings.shouldLog("m", "no cards", 5_000)).toBe(false);
    expect(warnings.shouldLog("m", "no memory", 6_000)).toBe(true);
    expect(warnings.shouldLog("m", "no memory", 6_000 + PLACEMENT_WARNING_REPEAT_MS - 1)).toBe(
      false,
    );
    expect(warnings.shouldLog("m", "no memory", 6_000 + PLACEMENT_WARNING_REPEAT_MS)).toBe(true);
    warnings.clear("m");
    expect(warnings.shouldLog("m", "no memory", 6_001 + PLACEMENT_WARNING_REPEAT_MS)).toBe(true);
  });
});
