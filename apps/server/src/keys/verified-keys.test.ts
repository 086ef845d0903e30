// The memory of verified keys: a key that matched is not hashed again for the same stored hash;
// one that did not match is never remembered; a changed stored hash, a forgotten hash or an evicted
// entry sends the key back to the HMAC.
import { describe, expect, it } from "vitest";
import { VerifiedKeys } from "./verified-keys";

function counting(valid: Record<string, string>) {
  const calls: string[] = [];
  const verify = (presented: string, keyHash: string) => {
    calls.push(presented);
    return valid[presented] === keyHash;
  };
  return { calls, verify };
}

describe("VerifiedKeys", () => {
  it("hashes a matching key once, and a wrong one every time it is tried", () => {
    const { calls, verify } = counting({ llmgw_good: "h1" });
    const keys = new VerifiedKeys(verify);
    expect(keys.matches("llmgw_good", "p", "h1")).toBe(true);
    expect(keys.matches("llmgw_good", "p", "h1")).toBe(true);
    expect(keys.matches("llmgw_guess", "p", "h1")).toBe(false);
    expect(keys.matches("llmgw_guess", "p", "h1")).toBe(false);
    expect(calls).toEqual(["llmgw_good", "llmgw_guess", "llmgw_guess"]);
    expect(keys.prefixOf("llmgw_good")).toBe("p");
    expect(keys.prefixOf("llmgw_guess")).toBeUndefined();
  });

  it("knows a key taken from a request's header by its value, with non-ASCII bytes kept", () => {
    const key = "llmgw_1234567890ab_çok-gizli-anahtar-0123456789";
    const { calls, verify } = counting({ [key]: "h1" });
    const keys = new VerifiedKeys(verify);
    const header = `Bearer ${key}`;
    expect(keys.matches(header.slice(7), "p", "h1")).toBe(true);
    expect(keys.prefixOf(key)).toBe("p");
    expect(keys.matches(`${key}`, "p", "h1")).toBe(true);
    expect(calls).toEqual([key]);
  });

  it("checks again against a stored hash that changed, and refuses the old key for it", () => {
    const valid: Record<string, string> = { llmgw_good: "h1" };
    const { verify } = counting(valid);
    const keys = new VerifiedKeys(verify);
    expect(keys.matches("llmgw_good", "p", "h1")).toBe(true);
    expect(keys.matches("llmgw_good", "p", "h2")).toBe(false);
  });

  it("forgets every key of a hash, and drops the oldest past its bound", () => {
    const { calls, verify } = counting({ a: "ha", b: "hb", c: "hc" });
    const keys = new VerifiedKeys(verify, 2);
    for (const key of ["a", "b"]) keys.matches(key, "p", `h${key}`);
    keys.forget("ha");
    keys.matches("a", "p", "ha"); // hashed again: forgotten
    keys.matches("c", "p", "hc"); // the third entry drops the oldest, b
    keys.matches("b", "p", "hb"); // hashed again: dropped
    keys.matches("c", "p", "hc"); // remembered
    expect(calls).toEqual(["a", "b", "a", "c", "b"]);
  });
});
