// `nodes.label`: an admin sets or removes labels kept in the store, which win over the agent's. The
// store is written first, so a server that restarts reads back what the operator was told.
import type { Database } from "@llmgw/db";
import type { NodesService } from "@llmgw/api";
import { applyLabelEdit } from "@llmgw/domain";
import { recordAudit } from "../identity/audit";
import { saveNodeFacility } from "./facility-store";
import type { FacilityOverlay } from "./facility-overlay";

export interface NodeLabelDeps {
  db: Database;
  nodes: Pick<NodesService, "get">;
  facility: FacilityOverlay;
  /** Placement reads labels on its next pass; this asks for one now. */
  facilityChanged(): void;
}

export function nodeLabeler(deps: NodeLabelDeps): NodesService["label"] {
  return async ({ id, set, remove }, actor) => {
    const node = await deps.nodes.get(id);
    const stored = applyLabelEdit(deps.facility.storedLabels(node.id), { set, remove });
    await saveNodeFacility(deps.db, node.id, stored, deps.facility.cordonOf(node.id));
    deps.facility.setLabels(node.id, stored);
    await recordAudit(deps.db, {
      actor: actor.username,
      action: "node.label",
      target: node.id,
      details: { name: node.name, set, remove },
    });
    deps.facilityChanged();
    return deps.nodes.get(node.id);
  };
}
