import { ServiceError } from "@llmgw/api";
import type { ScopeQuota } from "@llmgw/domain";
import { describe, expect, it } from "vitest";
import {
  checkAgainstParents,
  checkedAmounts,
  checkedScope,
  checkGuaranteeWithinLimit,
} from "./quota-rules";

function refusalOf(work: () => unknown): ServiceError {
  try {
    work();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

const quota = (scope: string, guarantee: string, limit: string | null = null): ScopeQuota => ({
  scope,
  guarantee: checkedAmounts("guarantee", guarantee),
  limit: limit === null ? null : checkedAmounts("limit", limit),
});

const CHAINS = new Map([
  ["org:acme", ["org:acme"]],
  ["team:ml", ["org:acme", "team:ml"]],
  ["project:search", ["org:acme", "team:ml", "project:search"]],
  ["team:web", ["org:acme", "team:web"]],
]);

describe("quota rules", () => {
  it("takes an org, team or project and refuses a person or a word", () => {
    expect(checkedScope("team:ml")).toBe("team:ml");
    for (const scope of ["user:ada", "ml", "cluster:all"]) {
      const refusal = refusalOf(() => checkedScope(scope));
      expect(refusal.refusal).toEqual({ code: "quota.scope_refused", params: { scope } });
      expect(refusal.message).toMatch(/give org:NAME, team:NAME or project:NAME/);
    }
  });

  it("names the part of the amounts that is wrong, and which flag it came from", () => {
    expect(checkedAmounts("guarantee", "gpus=H100-80G:16,cores=64,memory=512GiB")).toEqual({
      gpus: { "H100-80G": 16 },
      cores: 64,
      memoryGb: 512,
    });
    const refusal = refusalOf(() => checkedAmounts("limit", "gpus=H100-80G:16,disks=4"));
    expect(refusal.kind).toBe("invalid");
    expect(refusal.refusal.code).toBe("quota.amounts_refused");
    expect(refusal.refusal.params).toMatchObject({ field: "limit", part: "disks=4" });
    expect(refusal.message).toMatch(/^limit: "disks=4" was refused: "disks" is not a resource/);
  });

  it("refuses a guarantee above the scope's own limit, naming the resource and both amounts", () => {
    expect(() =>
      checkGuaranteeWithinLimit(quota("team:ml", "gpus=H100-80G:8", "gpus=H100-80G:8")),
    ).not.toThrow();
    // A limit that does not name a resource does not limit it.
    expect(() =>
      checkGuaranteeWithinLimit(quota("team:ml", "cores=64", "gpus=A100:2")),
    ).not.toThrow();
    const refusal = refusalOf(() =>
      checkGuaranteeWithinLimit(quota("team:ml", "gpus=H100-80G:16,cores=8", "gpus=H100-80G:12")),
    );
    expect(refusal.refusal).toEqual({
      code: "quota.guarantee_above_limit",
      params: { scope: "team:ml", resource: "gpus:H100-80G", guaranteed: 16, limit: 12 },
    });
  });

  it("refuses a child's guarantee above any parent's limit, whichever of the two is set last", () => {
    const org = quota("org:acme", "", "gpus=H100-80G:16,memory=1TiB");
    const child = refusalOf(() =>
      checkAgainstParents(quota("project:search", "gpus=H100-80G:20"), [org], CHAINS),
    );
    expect(child.refusal).toEqual({
      code: "quota.above_parent_limit",
      params: {
        scope: "project:search",
        resource: "gpus:H100-80G",
        guaranteed: 20,
        parent: "org:acme",
        limit: 16,
      },
    });
    // Lowering the parent's limit under a child's stored guarantee is refused the same way.
    const stored = [quota("team:ml", "memory=512GiB")];
    const parent = refusalOf(() =>
      checkAgainstParents(quota("org:acme", "", "memory=256GiB"), stored, CHAINS),
    );
    expect(parent.refusal.params).toMatchObject({
      scope: "team:ml",
      parent: "org:acme",
      limit: 256,
    });
    // A sibling's limit and a guarantee within the parent's are no reason to refuse.
    expect(() =>
      checkAgainstParents(
        quota("team:ml", "gpus=H100-80G:16"),
        [org, quota("team:web", "", "gpus=H100-80G:1")],
        CHAINS,
      ),
    ).not.toThrow();
  });
});
