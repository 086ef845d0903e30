// `nodes.engineBuild`: an admin chooses the GPU engine build a node installs (auto, cu13, cu129,
// none). The store is written first, then the node's agent is told at once; every Register is
// answered with the stored choice again, so a node that reconnects, or meets a restarted or new
// control plane, always holds it. What the node made of it comes back in its heartbeats.
import { eq, inArray, nodeEngineBuilds, type Database, type NodeEngineBuildRow } from "@llmgw/db";
import { ServiceError, type EngineBuildView, type NodesService } from "@llmgw/api";
import { ENGINE_BUILD_CHOICES, isEngineBuildChoice, type EngineBuildChoice } from "@llmgw/domain";
import { AGENT_FEATURE, type EngineBuildReport, type Register } from "@llmgw/proto";
import type { NodeLinks } from "../agents/node-links";
import { recordAudit } from "../identity/audit";
import type { FleetRegistry, LiveNode } from "./registry";
import type { StoredNodeRows } from "./stored-node-rows";

/** A node nobody chose for resolves its build by its driver. */
const DEFAULT_CHOICE: EngineBuildChoice = "auto";

export interface EngineBuildDeps {
  db: Database;
  nodes: Pick<NodesService, "get">;
  registry: Pick<FleetRegistry, "get">;
  links: Pick<NodeLinks, "send">;
  /** The node rows kept in memory: told when a choice is written. */
  stored: Pick<StoredNodeRows, "changed">;
}

export function nodeEngineBuilder(deps: EngineBuildDeps): NodesService["engineBuild"] {
  return async ({ id, build }, actor) => {
    if (!isEngineBuildChoice(build))
      throw new ServiceError(
        "invalid",
        `"${build}" is not an engine build; choose one of ${ENGINE_BUILD_CHOICES.join(", ")}`,
        {
          code: "node.engine_build_invalid",
          params: { build, builds: ENGINE_BUILD_CHOICES.join(", ") },
        },
      );
    const node = await deps.nodes.get(id);
    const setAt = new Date();
    await deps.db
      .insert(nodeEngineBuilds)
      .values({ nodeId: node.id, build, setBy: actor.username, setAt })
      .onConflictDoUpdate({
        target: nodeEngineBuilds.nodeId,
        set: { build, setBy: actor.username, setAt },
      });
    deps.stored.changed();
    await recordAudit(deps.db, {
      actor: actor.username,
      action: "node.engine_build",
      target: node.id,
      details: { name: node.name, build, was: node.engineBuild.choice },
    });
    const live = deps.registry.get(node.id);
    if (live?.isConnected) tellNode(deps.links, live.register, build);
    return deps.nodes.get(node.id);
  };
}

/** Sends the node its stored choice (auto when none is stored): after every Register. */
/** Sends each registered node its stored engine build: one read for the lot (a reconnect storm). */
export async function sendStoredEngineBuilds(
  deps: Pick<EngineBuildDeps, "db" | "links">,
  registers: ReadonlyArray<Pick<Register, "nodeId" | "features">>,
): Promise<void> {
  const ids = [...new Set(registers.map((register) => register.nodeId))];
  const rows = await deps.db
    .select()
    .from(nodeEngineBuilds)
    .where(
      ids.length === 1
        ? eq(nodeEngineBuilds.nodeId, ids[0] ?? "")
        : inArray(nodeEngineBuilds.nodeId, ids),
    );
  const byNode = new Map(rows.map((row) => [row.nodeId, row]));
  for (const register of registers)
    tellNode(deps.links, register, choiceOf(byNode.get(register.nodeId)));
}

function tellNode(
  links: Pick<NodeLinks, "send">,
  register: Pick<Register, "nodeId" | "features">,
  build: string,
): void {
  // An agent that predates the choice would answer it with an Error frame; it installs no GPU
  // engine either, so it is simply not told.
  if (!register.features.includes(AGENT_FEATURE.engineBuild)) return;
  links.send(register.nodeId, { msg: { case: "engineBuild", value: { build } } });
}

function choiceOf(row: NodeEngineBuildRow | undefined): EngineBuildChoice {
  return row && isEngineBuildChoice(row.build) ? row.build : DEFAULT_CHOICE;
}

/** The choice as stored and the node's last report of it. */
export function engineBuildView(
  row: NodeEngineBuildRow | undefined,
  live: Pick<LiveNode, "register" | "heartbeat" | "isConnected"> | undefined,
): EngineBuildView {
  const report = live?.isConnected ? reportOf(live) : undefined;
  return {
    choice: choiceOf(row),
    setBy: row?.setBy ?? null,
    setAt: row?.setAt.toISOString() ?? null,
    applied: report
      ? {
          choice: report.choice,
          build: report.build,
          reason: report.reason,
          installSource: report.installSource,
          withheldEngines: [...report.withheldEngines],
        }
      : null,
  };
}

/** The heartbeat's report once one arrived, Register's before. */
export function reportOf(
  live: Pick<LiveNode, "register" | "heartbeat">,
): EngineBuildReport | undefined {
  return live.heartbeat?.engineBuild ?? live.register.engineBuild;
}
