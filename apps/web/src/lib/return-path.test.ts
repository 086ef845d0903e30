import { describe, expect, it } from "vitest";
import { isSignInPath, LANDING_PATH, safeReturnPath, signInHref } from "./return-path";

describe("safeReturnPath", () => {
  it("keeps a page of this console, with its query", () => {
    expect(safeReturnPath("/nodes/gpu-1/logs")).toBe("/nodes/gpu-1/logs");
    expect(safeReturnPath("/usage?range=7d#chart")).toBe("/usage?range=7d#chart");
  });

  // Each of these is what an attacker would put in ?next= to bounce a fresh session elsewhere.
  it.each([
    "https://evil.example",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "javascript:alert(1)",
    "evil.example",
    "",
  ])("refuses %j", (attack) => {
    expect(safeReturnPath(attack)).toBeNull();
  });

  it("refuses the sign-in page itself, which would only loop", () => {
    expect(safeReturnPath("/sign-in?next=/models")).toBeNull();
  });
});

describe("signInHref", () => {
  it("remembers the page that asked for a session", () => {
    expect(signInHref("/nodes/gpu-1/logs?source=agent")).toBe(
      "/sign-in?next=%2Fnodes%2Fgpu-1%2Flogs%3Fsource%3Dagent",
    );
    expect(signInHref("/")).toBe("/sign-in");
    expect(LANDING_PATH).toBe("/cluster");
  });
});

describe("isSignInPath", () => {
  it("knows the sign-in page, where a second redirect would lose ?next=", () => {
    expect(isSignInPath("/sign-in")).toBe(true);
    expect(isSignInPath("/sign-in/")).toBe(true);
    expect(isSignInPath("/people/sign-in")).toBe(false);
    expect(isSignInPath("/sign-interval")).toBe(false);
  });
});
