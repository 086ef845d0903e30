// Peers changed on another control plane are taken in by the next reload, without a restart; a
// request never waits on it, and the peers known before stay while the store is out of reach.
import type { FederationPeerRow } from "@llmgw/db";
import { afterEach, describe, expect, it } from "vitest";
import { Federation } from "./federation";
import type { PeersStore } from "./peers-store";

const row = (name: string, models: string[], updatedMs = 0): FederationPeerRow => ({
  // Nothing listens on port 9 here: the /ready checks fail fast and only mark the peer down.
  ...{ name, url: "http://127.0.0.1:9", keySealed: `sealed-${name}`, sendsTags: false },
  models: models.map((model) => ({ name: model, isWithdrawn: false })),
  ...{ syncedAt: null, createdBy: "admin", createdAt: new Date(0) },
  updatedAt: new Date(updatedMs),
});

function storeOf(state: { rows: FederationPeerRow[]; isDown: boolean }): PeersStore {
  const all = async () => {
    if (state.isDown) throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
    return state.rows;
  };
  return { all, openKey: (peer: FederationPeerRow) => `key-of-${peer.name}` } as PeersStore;
}

let federation: Federation | undefined;
afterEach(async () => federation?.stop());

describe("federation reload", () => {
  it("takes in peers added, synced and removed elsewhere, and keeps them while the store is away", async () => {
    const state = { rows: [row("b", ["qwen"])], isDown: false };
    const lines: string[] = [];
    federation = new Federation({
      ...{ store: storeOf(state), clusterId: "cluster-a" },
      ...{ checkIntervalMs: 600_000, syncIntervalMs: 600_000 },
      ...{ fallbackNames: () => new Set<string>(), nowMs: () => 0, log: (l) => lines.push(l) },
    });
    await federation.start();
    expect(federation.offered()).toEqual(["b/qwen"]);

    // Added on the leader, and b synced there: both seen here on the next reload.
    state.rows = [row("b", ["llama"], 1_000), row("c", ["embed"])];
    await federation.reload();
    expect(federation.offered().sort()).toEqual(["b/llama", "c/embed"]);
    expect(federation.target("c/embed")?.peer.key).toBe("key-of-c");

    // The store restarts: what was known stays, and the failed read is only logged.
    state.isDown = true;
    await federation.reload();
    expect(federation.offered().sort()).toEqual(["b/llama", "c/embed"]);
    expect(lines.join("\n")).toMatch(/peers kept from before; the store: connect ECONNREFUSED/);

    // Removed elsewhere: its models are no longer offered here.
    state.isDown = false;
    state.rows = [row("c", ["embed"])];
    await federation.reload();
    expect(federation.offered()).toEqual(["c/embed"]);
    expect(federation.target("b/llama")).toBeNull();
  });
});
