// What a control plane reads from the store again: on a standby's refresh timer, so its view of
// the leader's placements stays at most one refresh old, and once more when it takes over, before
// it plans anything. Facility labels, cordons and holds are in it: set through another control
// plane, they must reach this one's placement as the replica book does.
import type { Database } from "@llmgw/db";
import type { CatalogStore } from "../catalog/catalog-store";
import type { FacilityOverlay } from "../fleet/facility-overlay";
import { loadFacility } from "../fleet/facility-store";
import type { ModelHealthBook } from "./model-health";
import type { QuotaBook } from "./quota-book";
import type { ReplicaBook } from "./replica-book";

export interface StoreViews {
  db: Database;
  book: Pick<ReplicaBook, "reload">;
  health: Pick<ModelHealthBook, "reload">;
  catalog: Pick<CatalogStore, "reload" | "current">;
  quotas: Pick<QuotaBook, "reload">;
  facility: FacilityOverlay;
}

/** Reads every view the reconciler plans from out of the store again. */
export async function reloadFromStore(views: StoreViews): Promise<void> {
  await Promise.all([
    views.book.reload(),
    views.health.reload(),
    views.catalog.reload(),
    loadFacility(views.db, views.facility),
  ]);
  // Quotas name the catalog's models, so they follow its reload.
  await views.quotas.reload(views.catalog.current().models);
}
