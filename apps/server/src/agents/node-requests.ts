// Services that ask nodes directly: the last lines of a log, and reclaiming cached weights. A node
// that is not connected, or whose agent did not announce the request's feature in Register, is
// refused with a sentence at once, never waited for.
import { messageOf, type ModelDefinition } from "@llmgw/domain";
import { ServiceError, type LogsService, type ReclaimService, type ReclaimView } from "@llmgw/api";
import { auditLog, type Database } from "@llmgw/db";
import { AGENT_FEATURE, type AgentFeature } from "@llmgw/proto";
import { readRecords } from "./log-records";
import type { FleetView } from "../fleet/fleet-view";
import type { LiveNode } from "../fleet/registry";
import type { NodeLinks } from "./node-links";

/** Nodes are found in the live registry and asked over their link; nothing here writes either. */
export interface NodeRequestDeps {
  registry: Pick<FleetView["registry"], "get" | "all">;
  links: Pick<NodeLinks, "isConnected" | "request">;
}

/** Why this node cannot be asked for the feature, or null when its agent announced it. */
function missingFeature(live: LiveNode, feature: AgentFeature): string | null {
  if (live.register.features.includes(feature)) return null;
  const version = live.register.agentVersion || "unknown";
  return `node "${live.register.nodeName}" cannot answer "${feature}" requests: its agent (version ${version}) does not announce the "${feature}" feature; agent too old; upgrade the agent`;
}

/** The connected node's id, or a refusal with a code saying why it cannot be asked. */
export function nodeIdFor(
  deps: NodeRequestDeps,
  nodeOrName: string,
  feature: AgentFeature,
): string {
  const live = deps.registry
    .all()
    .find((n) => n.nodeId === nodeOrName || n.register.nodeName === nodeOrName);
  if (!live)
    throw new ServiceError(
      "not_found",
      `node "${nodeOrName}" is not known; see \`llmgw ctl nodes\``,
      { code: "node.not_found", params: { node: nodeOrName } },
    );
  if (!deps.links.isConnected(live.nodeId)) {
    throw new ServiceError(
      "unavailable",
      `node "${live.register.nodeName}" is not connected; its logs are kept on the node and come back when its agent does`,
      { code: "node.not_connected", params: { node: live.register.nodeName } },
    );
  }
  const missing = missingFeature(live, feature);
  if (missing !== null)
    throw new ServiceError("unavailable", missing, {
      code: "node.agent_too_old",
      params: {
        node: live.register.nodeName,
        feature,
        version: live.register.agentVersion || "unknown",
      },
    });
  return live.nodeId;
}

export function createLogsService(deps: NodeRequestDeps, timeoutMs: number): LogsService {
  return {
    async get(node, source, lines, search = {}) {
      const isSearch = search.requestId !== undefined || search.everySource === true;
      // An agent that cannot search would ignore the request id and answer every line instead.
      const nodeId = nodeIdFor(deps, node, isSearch ? AGENT_FEATURE.logSearch : AGENT_FEATURE.logs);
      const value = { source, lines, ...search };
      const reply = await deps.links
        .request(nodeId, { msg: { case: "logsRequest", value } }, timeoutMs)
        .catch((error: Error) => {
          throw new ServiceError("unavailable", `node "${node}": ${error.message}`, {
            code: "node.request_failed",
            params: { node, reason: error.message },
          });
        });
      if (reply.msg.case === "error")
        throw new ServiceError(
          "unavailable",
          `node "${node}" could not answer: ${reply.msg.value.message}`,
          { code: "node.request_failed", params: { node, reason: reply.msg.value.message } },
        );
      if (reply.msg.case !== "logsReply")
        throw new ServiceError(
          "unavailable",
          `node "${node}" answered ${reply.msg.case ?? "nothing"} instead of logs`,
          { code: "node.wrong_answer", params: { node, answer: reply.msg.case ?? "nothing" } },
        );
      const answer = reply.msg.value;
      if (answer.error)
        throw new ServiceError("not_found", `node "${node}": ${answer.error}`, {
          code: "node.logs_unavailable",
          params: { node, reason: answer.error },
          details: [`sources: ${answer.sources.join(", ")}`],
        });
      return {
        node,
        source: answer.source || source,
        lines: [...answer.lines],
        sources: [...answer.sources],
        records: readRecords(answer.records),
        linesSearched: search.requestId === undefined ? null : answer.linesSearched,
      };
    },
  };
}

async function reclaimOn(
  deps: NodeRequestDeps,
  nodeId: string,
  wanted: string[],
  collect: boolean,
  timeoutMs: number,
): Promise<ReclaimView["nodes"][number]> {
  const live = deps.registry.get(nodeId);
  const node = live?.register.nodeName ?? nodeId;
  const missing = live === undefined ? null : missingFeature(live, AGENT_FEATURE.reclaim);
  if (missing !== null) return { node, entries: [], bytesFreed: 0, error: missing };
  try {
    const reply = await deps.links.request(
      nodeId,
      { msg: { case: "reclaimRequest", value: { wantedSources: wanted, collect } } },
      timeoutMs,
    );
    if (reply.msg.case !== "reclaimReply") {
      const why =
        reply.msg.case === "error"
          ? reply.msg.value.message
          : `answered ${reply.msg.case ?? "nothing"}`;
      return { node, entries: [], bytesFreed: 0, error: why };
    }
    const entries = reply.msg.value.entries.map((e) => ({
      cacheName: e.cacheName,
      source: e.source,
      sizeBytes: Number(e.sizeBytes),
      removed: e.removed,
      refused: e.refused,
    }));
    return { node, entries, bytesFreed: Number(reply.msg.value.bytesFreed), error: null };
  } catch (error) {
    return { node, entries: [], bytesFreed: 0, error: messageOf(error) };
  }
}

/** Every source the catalog loads, adapters too: reclaim keeps their cache entries on every node. */
export function catalogSources(models: readonly ModelDefinition[]): string[] {
  const sources = models.flatMap((model) => [
    model.source,
    ...model.adapters.map((adapter) => adapter.source),
  ]);
  return [...new Set(sources)];
}

export function createReclaimService(
  db: Pick<Database, "insert">,
  deps: NodeRequestDeps & { catalog: Pick<FleetView["catalog"], "current"> },
  timeoutMs: number,
): ReclaimService {
  return {
    async run(collect, actor) {
      const wanted = catalogSources(deps.catalog.current().models);
      const nodeIds = deps.registry
        .all()
        .map((n) => n.nodeId)
        .filter((id) => deps.links.isConnected(id));
      const nodes = await Promise.all(
        nodeIds.map((id) => reclaimOn(deps, id, wanted, collect, timeoutMs)),
      );
      if (collect) {
        const bytesFreed = nodes.reduce((sum, n) => sum + n.bytesFreed, 0);
        await db.insert(auditLog).values({
          actor: actor.username,
          action: "reclaim.collect",
          target: "",
          details: { bytesFreed, nodes: nodes.map((n) => n.node) },
        });
      }
      return { collect, nodes: nodes.sort((a, b) => a.node.localeCompare(b.node, "en")) };
    },
  };
}
