// The control plane's side of a rolling upgrade. It swaps its own release and restarts (exit 75,
// after the answer has gone), and tells one node at a time to do the same over its stream. The
// order, the waiting and the stopping rule live in the CLI driver (`ctl upgrade`).
import {
  ServiceError,
  type NodesService,
  type ReplicasService,
  type ReplicaView,
  type UpgradePlanNode,
  type UpgradeService,
} from "@llmgw/api";
import { messageOf } from "@llmgw/domain";
import { AGENT_FEATURE } from "@llmgw/proto";
import {
  installOrWhyNot,
  ReleaseError,
  swapCurrent,
  unpackRelease,
  type Install,
} from "@llmgw/release";
import { join } from "node:path";
import type { NodeLinks } from "../agents/node-links";
import type { EventRecorder } from "../events/event-recorder";
import type { FleetRegistry } from "../fleet/registry";
import type { ReleaseStore, StoredRelease } from "../releases/release-store";
import { upgradeTarget } from "./upgrade-target";

export interface UpgradeServiceDeps {
  serverVersion: string;
  store: ReleaseStore;
  nodes: Pick<NodesService, "list">;
  replicas: Pick<ReplicasService, "list">;
  registry: Pick<FleetRegistry, "all">;
  links: Pick<NodeLinks, "isConnected" | "request">;
  events: Pick<EventRecorder, "record">;
  /** How long a node may take to fetch, check and swap a release before it answers. */
  nodeReplyTimeoutMs: number;
  /** Stops the server with status 75 once the current answer has been sent. */
  requestRestart(): void;
  install?: () => { install: Install } | { reason: string };
  log(line: string): void;
}

/** A stored release checked against its checksum, or the refusal naming why it cannot be used. */
async function checkedRelease(store: ReleaseStore, version: string): Promise<StoredRelease> {
  try {
    return await store.verified(version);
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    if (error.code === "bad-name") {
      throw new ServiceError("not_found", error.message, {
        code: "release.not_found",
        params: { version },
      });
    }
    throw new ServiceError("invalid", `release ${version} was refused: ${error.message}`, {
      code: "release.refused",
      params: { version, reason: error.message },
    });
  }
}

type PlacedReplica = Pick<ReplicaView, "nodeId" | "phase"> & {
  shards: readonly Pick<ReplicaView["shards"][number], "nodeId">[];
};

/**
 * Ready replicas with a part on the node: the leader's or any shard's. Restarting a worker's node
 * stops the whole spanning replica, so the upgrade must wait for it as for one on the leader's.
 */
export function readyReplicasOn(replicas: readonly PlacedReplica[], nodeId: string): number {
  return replicas.filter(
    (r) =>
      r.phase === "ready" &&
      (r.nodeId === nodeId || r.shards.some((shard) => shard.nodeId === nodeId)),
  ).length;
}

async function planNodes(deps: UpgradeServiceDeps): Promise<UpgradePlanNode[]> {
  const [nodes, replicas] = await Promise.all([deps.nodes.list(), deps.replicas.list({})]);
  return nodes.map((node) => ({
    id: node.id,
    name: node.name,
    agentVersion: node.agentVersion,
    isConnected: deps.links.isConnected(node.id),
    isReady: node.state === "ready",
    readyReplicas: readyReplicasOn(replicas, node.id),
    canUpgrade: node.features.includes(AGENT_FEATURE.upgrade),
  }));
}

export function createUpgradeService(deps: UpgradeServiceDeps): UpgradeService {
  const findInstall = deps.install ?? installOrWhyNot;
  return {
    async plan() {
      const found = findInstall();
      return {
        serverVersion: deps.serverVersion,
        serverRefusal: "reason" in found ? found.reason : null,
        releases: (await deps.store.list()).map((r) => ({ ...r, added: r.added.toISOString() })),
        nodes: await planNodes(deps),
      };
    },
    async controlPlane(version, actor) {
      const from = deps.serverVersion;
      if (version === from) return { from, version, isRestarting: false };
      const found = findInstall();
      if ("reason" in found) {
        throw new ServiceError(
          "unavailable",
          `the control plane cannot upgrade itself: ${found.reason}`,
          {
            code: "upgrade.self_refused",
            params: { reason: found.reason },
          },
        );
      }
      const release = await checkedRelease(deps.store, version);
      await unpackRelease(join(deps.store.dir, release.file), found.install.root, version).catch(
        (error: unknown) => {
          throw new ServiceError("invalid", `release ${version} was refused: ${messageOf(error)}`, {
            code: "release.refused",
            params: { version, reason: messageOf(error) },
          });
        },
      );
      await swapCurrent(found.install.root, version);
      deps.events.record("upgrade.control-plane", version, {
        from,
        to: version,
        by: actor.username,
      });
      deps.log(
        `upgrade: ${actor.username} swapped the control plane from ${from} to ${version}; restarting`,
      );
      deps.requestRestart();
      return { from, version, isRestarting: true };
    },
    async node(nodeIdOrName, version, actor) {
      const target = upgradeTarget(deps.registry.all(), deps.links, nodeIdOrName);
      if (target.register.agentVersion === version) {
        return {
          nodeId: target.nodeId,
          name: target.register.nodeName,
          from: version,
          version,
          isRestarting: false,
        };
      }
      const release = await checkedRelease(deps.store, version);
      return sendUpgrade(deps, target, release, actor.username);
    },
  };
}

async function sendUpgrade(
  deps: UpgradeServiceDeps,
  target: ReturnType<typeof upgradeTarget>,
  release: StoredRelease,
  by: string,
) {
  const { nodeId } = target;
  const node = target.register.nodeName;
  const from = target.register.agentVersion;
  const version = release.version;
  deps.events.record("upgrade.node-started", nodeId, { node, from, to: version, by });
  const frame = {
    version,
    file: release.file,
    sha256: release.sha256,
    urlPath: `/agent/v1/releases/${release.file}`,
  };
  let reason: string;
  try {
    const reply = await deps.links.request(
      nodeId,
      { msg: { case: "upgradeAgent", value: frame } },
      deps.nodeReplyTimeoutMs,
    );
    if (reply.msg.case === "upgradeReply" && reply.msg.value.ok) {
      deps.events.record("upgrade.node-done", nodeId, { node, version });
      return { nodeId, name: node, from, version, isRestarting: !reply.msg.value.alreadyCurrent };
    }
    reason =
      reply.msg.case === "upgradeReply"
        ? reply.msg.value.error
        : reply.msg.case === "error"
          ? reply.msg.value.message
          : `it answered ${reply.msg.case ?? "nothing"}`;
  } catch (error) {
    reason = messageOf(error);
  }
  deps.events.record("upgrade.node-failed", nodeId, { node, version, reason });
  throw new ServiceError("unavailable", `node "${node}" did not upgrade to ${version}: ${reason}`, {
    code: "upgrade.node_refused",
    params: { node, version, reason },
  });
}
