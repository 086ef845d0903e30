// The guard's policies while the store restarts: requests keep the last policies read instead of
// failing, and a change made here is read at once.
import type { Database } from "@llmgw/db";
import { describe, expect, it } from "vitest";
import { Guard } from "./guard";

const POLICY = {
  ...{ name: "pii", appliesTo: ["team:ml"], stages: ["prompt"], checks: ["pii"] },
  ...{ judgeModel: null, fail: "closed", budgetMs: 500 },
};

function storeOf(state: { rows: unknown[]; isDown: boolean; reads: number }): Database {
  const from = async () => {
    state.reads += 1;
    if (state.isDown) throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
    return state.rows;
  };
  return { select: () => ({ from }) } as unknown as Database;
}

describe("guard policies", () => {
  it("keeps the last policies while the store is away, and reads a change made here at once", async () => {
    const state = { rows: [POLICY] as unknown[], isDown: false, reads: 0 };
    let nowMs = 0;
    const lines: string[] = [];
    const guard = new Guard({ db: storeOf(state), nowMs: () => nowMs, log: (l) => lines.push(l) });
    expect((await guard.policies()).map((p) => p.name)).toEqual(["pii"]);
    state.isDown = true;
    nowMs = 6_000;
    // Stale: served at once while a fresh read is tried; that read fails and is only logged.
    expect((await guard.policies()).map((p) => p.name)).toEqual(["pii"]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(lines.join("\n")).toMatch(/policies kept from before; the store: connect ECONNREFUSED/);
    guard.policiesChanged();
    expect((await guard.policies()).map((p) => p.name)).toEqual(["pii"]);
    state.isDown = false;
    state.rows = [];
    guard.policiesChanged();
    expect(await guard.policies()).toEqual([]);
    expect(state.reads).toBe(4);
  });

  it("fails when the store was never read", async () => {
    const state = { rows: [], isDown: true, reads: 0 };
    const guard = new Guard({ db: storeOf(state), nowMs: () => 0, log: () => undefined });
    await expect(guard.policies()).rejects.toThrow(/ECONNREFUSED/);
  });

  it("names the policies' judge models from memory, for placement, without waiting on the store", async () => {
    const judged = { ...POLICY, name: "inj", checks: ["injection"], judgeModel: "judge-3b" };
    const state = { rows: [POLICY, judged] as unknown[], isDown: false, reads: 0 };
    const guard = new Guard({ db: storeOf(state), nowMs: () => 0, log: () => undefined });
    // Nothing read yet: no judge known, and the read it starts is not waited for.
    expect([...guard.judgeModels()]).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect([...guard.judgeModels()]).toEqual(["judge-3b"]);
  });
});
