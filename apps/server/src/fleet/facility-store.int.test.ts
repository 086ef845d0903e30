// The store under labels, cordons and holds: what an admin set survives a restart, read back into
// a fresh overlay as placement would see it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "@llmgw/db";
import type { NodeView } from "@llmgw/api";
import { tempDir } from "@llmgw/testing";
import { FacilityOverlay } from "./facility-overlay";
import { loadFacility } from "./facility-store";
import { createFacilityService, nodeCordoner } from "./facility-service";
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

describe("holds and cordons in the store", () => {
  it("hold, drain, release and cordon are kept, recorded as events, and read back after a restart", async () => {
    const db = (store as Store).db;
    const facility = new FacilityOverlay();
    const recorded: string[] = [];
    const node = {
      id: "n2",
      name: "gpu-2",
      labels: { "llmgw.io/rack": "r12" },
    } as unknown as NodeView;
    // Two cards, one of which reported its draw.
    const placed = { name: node.name, labels: node.labels, cardCount: 2, powerWatts: 300 };
    const deps = {
      db,
      facility,
      nodes: {
        get: async () => ({ ...node, cordon: facility.cordonOf("n2") }),
        facilityNodes: async () => [placed],
      },
      events: {
        record: (kind: string, subject: string) => void recorded.push(`${kind} ${subject}`),
      },
      facilityChanged: () => undefined,
    };
    const service = createFacilityService(deps);
    await service.hold("rack=r12", true, admin);
    await service.hold("pdu=p9", false, admin);
    expect((await nodeCordoner(deps)({ id: "gpu-2", state: "cordoned" }, admin)).cordon).toBe(
      "cordoned",
    );
    const view = await service.list();
    expect(view.domains).toEqual([
      expect.objectContaining({
        domain: "rack=r12",
        nodes: ["gpu-2"],
        cards: 2,
        powerWatts: 300,
        hold: expect.objectContaining({ isDraining: true, heldBy: "root" }),
      }),
    ]);
    expect(view.holds.map((h) => h.domain).sort()).toEqual(["pdu=p9", "rack=r12"]);
    await service.release("pdu=p9", admin);
    await expect(service.release("pdu=p9", admin)).rejects.toThrow("pdu=p9 is not held");
    expect(recorded).toEqual([
      "facility.held rack=r12",
      "facility.held pdu=p9",
      "node.cordoned n2",
      "facility.released pdu=p9",
    ]);

    const restarted = new FacilityOverlay();
    await loadFacility(db, restarted);
    expect(restarted.holds()).toEqual([
      expect.objectContaining({ kind: "rack", value: "r12", isDraining: true }),
    ]);
    expect(restarted.cordonOf("n2")).toBe("cordoned");
  });
});
