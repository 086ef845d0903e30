import { describe, expect, it } from "vitest";
import { StoredNodeRows, type NodeRowSet } from "./stored-node-rows";

const EMPTY: NodeRowSet = { nodeRows: [], gpuRows: [], buildRows: [] };

/** Rows whose read the test finishes by hand, with a clock it moves. */
function harness(maxAgeMs = 30_000) {
  let nowMs = 0;
  const pending: Array<(rows: NodeRowSet) => void> = [];
  const stored = new StoredNodeRows(
    () => new Promise<NodeRowSet>((resolve) => pending.push(resolve)),
    () => nowMs,
    maxAgeMs,
  );
  return {
    stored,
    pending,
    advance: (ms: number) => (nowMs += ms),
  };
}

describe("StoredNodeRows", () => {
  it("answers polls from one read until a writer says the rows changed", async () => {
    const { stored, pending } = harness();
    const first = stored.rows();
    pending[0]?.(EMPTY);
    await first;
    for (let poll = 0; poll < 10; poll += 1) await stored.rows();
    expect(stored.reads).toBe(1);
    stored.changed();
    const next = stored.rows();
    expect(stored.reads).toBe(2);
    pending[1]?.(EMPTY);
    await next;
  });

  it("shares one read among the polls that arrive while it is under way", async () => {
    const { stored, pending } = harness();
    const answers = [stored.rows(), stored.rows(), stored.rows()];
    expect(stored.reads).toBe(1);
    pending[0]?.(EMPTY);
    expect(new Set(await Promise.all(answers)).size).toBe(1);
  });

  it("does not keep a read that was under way when the rows changed", async () => {
    const { stored, pending } = harness();
    const before = stored.rows();
    stored.changed();
    pending[0]?.(EMPTY);
    await before;
    const after = stored.rows();
    expect(stored.reads).toBe(2);
    const fresh: NodeRowSet = { ...EMPTY, nodeRows: [] };
    pending[1]?.(fresh);
    expect(await after).toBe(fresh);
  });

  it("reads again once the rows are older than the longest it keeps them", async () => {
    const { stored, pending, advance } = harness(1000);
    const first = stored.rows();
    pending[0]?.(EMPTY);
    await first;
    advance(999);
    await stored.rows();
    expect(stored.reads).toBe(1);
    advance(1);
    void stored.rows();
    expect(stored.reads).toBe(2);
  });

  it("tries the store again after a failed read rather than keeping the failure", async () => {
    let fail = true;
    const stored = new StoredNodeRows(
      () => (fail ? Promise.reject(new Error("store gone")) : Promise.resolve(EMPTY)),
      () => 0,
    );
    await expect(stored.rows()).rejects.toThrow("store gone");
    fail = false;
    await expect(stored.rows()).resolves.toBe(EMPTY);
    expect(stored.reads).toBe(2);
  });
});
