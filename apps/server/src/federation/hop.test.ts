import { describe, expect, it } from "vitest";
import { HOPS_MAX, checkHops, hopsOnward } from "./hop";

describe("the x-llmgw-hop list", () => {
  it("is empty on a request from a client", () => {
    expect(checkHops(undefined, "a")).toEqual({ ok: true, hops: [] });
  });

  it("reads the clusters passed, oldest first, spaces and empty entries ignored", () => {
    expect(checkHops(" c1 , ,c2", "self")).toEqual({ ok: true, hops: ["c1", "c2"] });
    expect(checkHops(["c1", "c2"], "self")).toEqual({ ok: true, hops: ["c1", "c2"] });
  });

  it("refuses a request that already passed this cluster", () => {
    const check = checkHops("b,a", "a");
    expect(check).toMatchObject({ ok: false, code: "federation_loop" });
    if (!check.ok) expect(check.why).toContain("already passed cluster a");
  });

  it("refuses an id that is not a cluster id, without echoing more than 64 characters", () => {
    const check = checkHops(`ok,${"X".repeat(500)}`, "a");
    expect(check).toMatchObject({ ok: false, code: "federation_bad_hop" });
    if (!check.ok) expect(check.why.length).toBeLessThan(200);
  });

  it(`refuses a request that passed ${HOPS_MAX} clusters`, () => {
    const hops = Array.from({ length: HOPS_MAX }, (_, i) => `c${i}`).join(",");
    expect(checkHops(hops, "self")).toMatchObject({ ok: false, code: "federation_loop" });
    expect(checkHops(hops.split(",").slice(1).join(","), "self").ok).toBe(true);
  });

  it("adds this cluster when the request goes on", () => {
    expect(hopsOnward([], "a")).toBe("a");
    expect(hopsOnward(["a", "b"], "c")).toBe("a,b,c");
  });
});
