// The store under labels, cordons and holds: what an admin set survives a restart, read back into
// a fresh overlay as placement would see it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "@llmgw/db";
import type { NodeView } from "@llmgw/api";
import { tempDir } from "@llmgw/testing";
import { FacilityOverlay } from "./facility-overlay";
import { loadFacility } from "./facility-store";
import { nodeLabeler } from "./node-labels";

let store: Store | undefined;

beforeAll(async () => {
  store = await openStore({ kind: "pglite", dataDir: (await tempDir("facility-store")).path });
});
afterAll(async () => store?.close());

const admin = { username: "root" };

describe("node labels in the store", () => {
  it("lay the store's labels over the agent's, keep them across a restart, and remove with key-", async () => {
    const db = (store as Store).db;
    const facility = new FacilityOverlay();
    let changes = 0;
    const view = (labels: Record<string, string>) =>
      ({ id: "n1", name: "gpu-1", labels }) as NodeView;
    const label = nodeLabeler({
      db,
      facility,
      nodes: { get: async () => view(facility.labelsOf("n1", { "llmgw.io/rack": "r1" })) },
      facilityChanged: () => (changes += 1),
    });
    const after = await label(
      { id: "gpu-1", set: { "llmgw.io/rack": "r12", "llmgw.io/pdu": "p3" }, remove: [] },
      admin,
    );
    expect(after.labels).toEqual({ "llmgw.io/rack": "r12", "llmgw.io/pdu": "p3" });
    expect(changes).toBe(1);
    await label({ id: "gpu-1", set: {}, remove: ["llmgw.io/rack"] }, admin);

    const restarted = new FacilityOverlay();
    await loadFacility(db, restarted);
    expect(restarted.storedLabels("n1")).toEqual({ "llmgw.io/pdu": "p3" });
    // The store's rack is gone, so the agent's own shows again.
    expect(restarted.labelsOf("n1", { "llmgw.io/rack": "r1" })).toEqual({
      "llmgw.io/rack": "r1",
      "llmgw.io/pdu": "p3",
    });
  });
});
