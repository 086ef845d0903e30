// The node an upgrade is sent to: known, connected now, and running an agent that announced the
// `upgrade` feature (an older agent would never answer).
import { ServiceError } from "@llmgw/api";
import { AGENT_FEATURE } from "@llmgw/proto";
import type { NodeLinks } from "../agents/node-links";
import type { LiveNode } from "../fleet/registry";

export function upgradeTarget(
  nodes: readonly LiveNode[],
  links: Pick<NodeLinks, "isConnected">,
  nodeIdOrName: string,
): LiveNode {
  const live = nodes.find((n) => n.nodeId === nodeIdOrName || n.register.nodeName === nodeIdOrName);
  if (!live) {
    throw new ServiceError(
      "not_found",
      `node "${nodeIdOrName}" is not known; see \`llmgw ctl nodes\``,
      {
        code: "node.not_found",
        params: { node: nodeIdOrName },
      },
    );
  }
  const node = live.register.nodeName;
  if (!links.isConnected(live.nodeId)) {
    throw new ServiceError(
      "unavailable",
      `node "${node}" is not connected; it is upgraded once its agent is back`,
      {
        code: "node.not_connected",
        params: { node },
      },
    );
  }
  const feature = AGENT_FEATURE.upgrade;
  if (!live.register.features.includes(feature)) {
    const version = live.register.agentVersion || "unknown";
    throw new ServiceError(
      "unavailable",
      `node "${node}" cannot answer "${feature}" requests: its agent (version ${version}) does not announce the "${feature}" feature; agent too old; upgrade the agent by hand once`,
      { code: "node.agent_too_old", params: { node, feature, version } },
    );
  }
  return live;
}
