import { describe, expect, it } from "vitest";
import { safeReturnTo } from "./auth-routes";

describe("safeReturnTo", () => {
  it("keeps a path on this site", () => {
    expect(safeReturnTo("/nodes/gpu-1/logs?source=agent")).toBe("/nodes/gpu-1/logs?source=agent");
  });

  // What an attacker would put in /auth/entra/start?returnTo= to land a fresh session elsewhere.
  it.each([
    "https://evil.example",
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "evil.example",
  ])("sends %j home instead", (attack) => {
    expect(safeReturnTo(attack)).toBe("/");
  });
});
