import { describe, expect, it } from "vitest";
import { deriveReplicaKey } from "./replica-key";

const secret = new Uint8Array(32).fill(7);

describe("deriveReplicaKey", () => {
  it("is deterministic and URL-safe", () => {
    const key = deriveReplicaKey(secret, "rep-1");
    expect(deriveReplicaKey(Uint8Array.from(secret), "rep-1")).toBe(key);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("separates replicas and secrets", () => {
    const other = new Uint8Array(32).fill(8);
    const keys = new Set([
      deriveReplicaKey(secret, "rep-1"),
      deriveReplicaKey(secret, "rep-2"),
      deriveReplicaKey(secret, "rep-10"),
      deriveReplicaKey(other, "rep-1"),
    ]);
    expect(keys.size).toBe(4);
  });

  it("matches an HMAC-SHA256 over the labelled replica id (pinned vector)", () => {
    expect(deriveReplicaKey(new TextEncoder().encode("0123456789abcdef"), "r")).toBe(
      "l1heCKUIdu-1uvkOa95wLxo4T_u6O8UAe2sAN-OtR9o",
    );
  });

  it("refuses a short secret and an empty replica id", () => {
    expect(() => deriveReplicaKey(new Uint8Array(8), "rep-1")).toThrow(/8 bytes/);
    expect(() => deriveReplicaKey(secret, "")).toThrow(/empty/);
  });
});
