import { describe, expect, it } from "vitest";
import { must } from "./must";
import { flatOwnership, formatOwner, parseOwner } from "./ownership";

describe("owners", () => {
  it("reads and writes each kind", () => {
    for (const text of ["org:acme", "team:ml", "project:search", "user:ada@example.com"]) {
      const owner = parseOwner(text);
      expect(owner).not.toBeNull();
      expect(formatOwner(must(owner, text))).toBe(text);
    }
  });

  it("refuses what is not an owner", () => {
    for (const text of ["", "ml", "group:ml", "team:", "team:a b", `team:${"x".repeat(101)}`]) {
      expect(parseOwner(text)).toBeNull();
    }
  });

  it("a flat resolver keeps every owner alone", async () => {
    await expect(flatOwnership.chain("team:ml")).resolves.toEqual(["team:ml"]);
  });
});
