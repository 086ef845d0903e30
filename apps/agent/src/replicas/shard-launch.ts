// One shard of a replica spanning nodes, as this agent starts it. The leader shard (rank 0) picks
// a free rendezvous port and reports `advertise-host:port` as the leader address; a worker joins
// the address the control plane passed on from the leader. Both become the engine's own
// multi-node flags (see the engine adapters).
import type { MultiNodeLaunch } from "@llmgw/engines";
import type { StartReplica } from "@llmgw/proto";

export interface ShardLaunch {
  multiNode: MultiNodeLaunch;
  /** What the leader reports in ReplicaStatus.leader_address; "" for a worker. */
  leaderAddress: string;
  /** The leader's rendezvous port on this node; 0 for a worker. */
  rendezvousPort: number;
}

function isSpanning(spec: StartReplica): boolean {
  return spec.nodeCount > 1;
}

export function isWorkerShard(spec: StartReplica): boolean {
  return isSpanning(spec) && spec.nodeRank > 0;
}

/** What a shard says when it is up; a worker serves no API, so it says whom it joined. */
export function readyMessage(spec: StartReplica): string {
  const { nodeRank, nodeCount, leaderAddress } = spec;
  if (isWorkerShard(spec))
    return `worker shard rank ${nodeRank} of ${nodeCount} running, joined to ${leaderAddress} (serves no API)`;
  return isSpanning(spec) ? `ready: leader shard of ${nodeCount} nodes` : "ready";
}

/** Splits `host:port` (or `[v6]:port`); throws a sentence naming what is wrong. */
export function parseLeaderAddress(address: string): { host: string; port: number } {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(address);
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (host === undefined || !Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(
      `the leader address "${address}" is not host:port; the control plane sends the one the leader shard reported`,
    );
  return { host, port };
}

/**
 * The shard's part of the launch, or undefined for a replica on one node. `pickPort` gives the
 * leader a free port for its workers (never the engine's own).
 */
export async function shardLaunch(
  spec: StartReplica,
  advertiseHost: string,
  pickPort: () => Promise<number>,
): Promise<ShardLaunch | undefined> {
  if (!isSpanning(spec)) return undefined;
  const base = { nodeRank: spec.nodeRank, nodeCount: spec.nodeCount };
  if (spec.nodeRank >= spec.nodeCount)
    throw new Error(`shard rank ${spec.nodeRank} is not below the node count ${spec.nodeCount}`);
  if (spec.nodeRank > 0) {
    if (spec.leaderAddress === "")
      throw new Error(
        `worker shard rank ${spec.nodeRank} got no leader address; it starts once the leader shard has reported one`,
      );
    const leader = parseLeaderAddress(spec.leaderAddress);
    return {
      multiNode: { ...base, leaderHost: leader.host, leaderPort: leader.port },
      leaderAddress: "",
      rendezvousPort: 0,
    };
  }
  const port = await pickPort();
  const host = advertiseHost.includes(":") ? `[${advertiseHost}]` : advertiseHost;
  return {
    multiNode: { ...base, leaderHost: advertiseHost, leaderPort: port },
    leaderAddress: `${host}:${port}`,
    rendezvousPort: port,
  };
}
