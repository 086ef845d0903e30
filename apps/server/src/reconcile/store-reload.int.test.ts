// A standby follows what another control plane sets on the facility: labels, cordons and holds
// written to the store reach its placement view on the next refresh, as the replica book does,
// and a released hold leaves it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, facilityHolds, openStore, type Store } from "@llmgw/db";
import { tempDir, waitFor } from "@llmgw/testing";
import { FacilityOverlay } from "../fleet/facility-overlay";
import { saveNodeFacility } from "../fleet/facility-store";
import { followLeadership } from "../leader/standby";
import { reloadFromStore } from "./store-reload";

let store: Store | undefined;

beforeAll(async () => {
  store = await openStore({ kind: "pglite", dataDir: (await tempDir("store-reload")).path });
});
afterAll(async () => store?.close());

function standbyOf(db: Store["db"], facility: FacilityOverlay) {
  let bookReloads = 0;
  const idle = async () => undefined;
  const views = {
    db,
    facility,
    book: { reload: async () => void (bookReloads += 1) },
    health: { reload: idle },
    catalog: { reload: idle, current: () => ({ models: [] }) },
    quotas: { reload: idle },
  };
  const following = followLeadership({
    source: {
      isLeader: () => false,
      confirm: async () => false,
      onChange: () => () => undefined,
    },
    reload: () => reloadFromStore(views as unknown as Parameters<typeof reloadFromStore>[0]),
    tookOver: () => undefined,
    refreshMs: 50,
    log: () => undefined,
  });
  return { following, bookReloads: () => bookReloads };
}

describe("a standby's facility view", () => {
  it("picks up labels, cordons and holds set elsewhere on its refresh, and drops a released hold", async () => {
    const db = (store as Store).db;
    const facility = new FacilityOverlay();
    const standby = standbyOf(db, facility);
    try {
      // The leader (another process) writes to the store; this standby never led.
      await saveNodeFacility(db, "n1", { "llmgw.io/rack": "r7" }, "cordoned");
      await db.insert(facilityHolds).values({ kind: "rack", value: "r7", heldBy: "root" });
      await waitFor(
        async () => (facility.holds().length === 1 && facility.cordonOf("n1") ? true : undefined),
        { what: "the hold and cordon on the standby", timeoutMs: 5_000, intervalMs: 20 },
      );
      expect(facility.labelsOf("n1", {})).toMatchObject({ "llmgw.io/rack": "r7" });
      expect(facility.cordonOf("n1")).toBe("cordoned");
      expect(standby.bookReloads()).toBeGreaterThan(0);

      await db
        .delete(facilityHolds)
        .where(and(eq(facilityHolds.kind, "rack"), eq(facilityHolds.value, "r7")));
      await saveNodeFacility(db, "n1", {}, null);
      await waitFor(
        async () => (facility.holds().length === 0 && !facility.cordonOf("n1") ? true : undefined),
        { what: "the release and uncordon on the standby", timeoutMs: 5_000, intervalMs: 20 },
      );
      expect(facility.labelsOf("n1", {})).toEqual({});
    } finally {
      standby.following.stop();
    }
  });
});
