// Removing a node: its certificates are revoked (its next connection is refused at the
// handshake's check), its session is closed, and from there the server treats it as a node that
// left: unreachable, then lost, its replicas rebuilt elsewhere by the reconciler.
import type { Database } from "@llmgw/db";
import type { NodesService } from "@llmgw/api";
import type { NodeLinks } from "../agents/node-links";
import { CLOSE_UNAUTHENTICATED } from "../agents/agent-socket";
import type { EventRecorder } from "../events/event-recorder";
import { recordAudit } from "../identity/audit";
import type { NodeCertificates } from "./node-certificates";

export interface RemoveNodeDeps {
  db: Database;
  nodes: Pick<NodesService, "get">;
  certificates: Pick<NodeCertificates, "revokeNode">;
  links: Pick<NodeLinks, "close">;
  events: Pick<EventRecorder, "record">;
  log(line: string): void;
}

export function nodeRemover(deps: RemoveNodeDeps): NodesService["remove"] {
  return async (id, actor) => {
    const node = await deps.nodes.get(id);
    const revoked = await deps.certificates.revokeNode(
      node.id,
      `node removed by ${actor.username}`,
    );
    deps.links.close(node.id, CLOSE_UNAUTHENTICATED, "the node was removed from the cluster");
    deps.log(
      `node ${node.name} (${node.id}) removed by ${actor.username}: ${revoked} certificate(s) revoked`,
    );
    deps.events.record("node.removed", node.id, { node: node.name, actor: actor.username });
    await recordAudit(deps.db, {
      actor: actor.username,
      action: "node.remove",
      target: node.id,
      details: { name: node.name, certificatesRevoked: revoked },
    });
    return { id: node.id, certificatesRevoked: revoked };
  };
}
