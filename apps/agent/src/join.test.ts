import { describe, expect, it } from "vitest";
import { httpsBase, normaliseFingerprint } from "./join";
import { renewAtMs } from "./renewal";

describe("joining", () => {
  it("reads a CA fingerprint however it was pasted, and refuses what is not one", () => {
    const hex = "ab".repeat(32);
    expect(normaliseFingerprint(hex.toUpperCase())).toBe(hex);
    expect(normaliseFingerprint(`sha256:${hex}`)).toBe(hex);
    expect(normaliseFingerprint(hex.match(/../g)?.join(":") ?? "")).toBe(hex);
    expect(normaliseFingerprint("ab".repeat(31))).toBeNull();
    expect(normaliseFingerprint(`${"ab".repeat(31)}zz`)).toBeNull();
  });

  it("joins only through a wss:// address, on the same port's HTTPS routes", () => {
    expect(httpsBase("wss://cp:8081")).toBe("https://cp:8081");
    expect(() => httpsBase("ws://cp:8081")).toThrow(/wss:\/\/ address is required/);
  });

  it("renews two thirds into a certificate's life", () => {
    expect(renewAtMs(0, 30_000)).toBe(20_000);
    expect(renewAtMs(1_000, 4_000)).toBe(3_000);
  });
});
