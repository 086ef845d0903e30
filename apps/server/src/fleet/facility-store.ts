// Reading and writing what operators set on the facility (node labels, cordons, holds) in the
// store, and filling the in-memory overlay placement reads from it.
import { facilityHolds, nodeFacility, type Database } from "@llmgw/db";
import { isDomainKind } from "@llmgw/domain";
import type { CordonState, FacilityHold, FacilityOverlay } from "./facility-overlay";

function cordonOf(text: string | null): CordonState | null {
  return text === "cordoned" || text === "draining" ? text : null;
}

export async function loadFacility(db: Database, overlay: FacilityOverlay): Promise<void> {
  const [nodeRows, holdRows] = await Promise.all([
    db.select().from(nodeFacility),
    db.select().from(facilityHolds),
  ]);
  for (const row of nodeRows) {
    overlay.setLabels(row.nodeId, row.labels);
    overlay.setCordon(row.nodeId, cordonOf(row.cordon));
  }
  overlay.setHolds(
    holdRows.flatMap((row): FacilityHold[] =>
      isDomainKind(row.kind)
        ? [
            {
              kind: row.kind,
              value: row.value,
              isDraining: row.isDraining,
              heldBy: row.heldBy,
              heldAtMs: row.heldAt.getTime(),
            },
          ]
        : [],
    ),
  );
}

/** Writes a node's stored labels and cordon state together, the row being the node's whole say. */
export async function saveNodeFacility(
  db: Database,
  nodeId: string,
  labels: Record<string, string>,
  cordon: CordonState | null,
): Promise<void> {
  const values = { nodeId, labels, cordon, updatedAt: new Date() };
  await db
    .insert(nodeFacility)
    .values(values)
    .onConflictDoUpdate({
      target: nodeFacility.nodeId,
      set: { labels, cordon, updatedAt: values.updatedAt },
    });
}
