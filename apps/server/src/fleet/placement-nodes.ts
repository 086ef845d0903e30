// What placement and reconciling see of the live fleet: each registered node's cards, memory and
// liveness, derived from its agent session when asked, never cached between passes.
import {
  ENGINES,
  nodeLiveness,
  normaliseGpuClass,
  parseComputeCapability,
  unreachableAfterMs,
  type LivenessPolicy,
  type PlacementNode,
  type Engine,
  type ReconcileNode,
} from "@llmgw/domain";
import { engineInstallsOf, offeredEngines } from "./engine-installs";
import type { FleetRegistry, LiveNode } from "./registry";

const GB = 1e9;

const isKnownEngine = (name: string): name is Engine =>
  (ENGINES as readonly string[]).includes(name);

function placementNodeOf(live: LiveNode, isReachable: boolean): PlacementNode {
  const hw = live.register.hardware;
  const engines = offeredEngines(live).filter(isKnownEngine);
  const diskBytesFree = live.heartbeat?.diskBytesFree ?? hw?.diskBytesFree ?? 0n;
  const node: PlacementNode = {
    id: live.nodeId,
    name: live.register.nodeName,
    isReachable,
    labels: { ...live.register.labels },
    cards: (hw?.gpus ?? []).map((gpu) => ({
      index: gpu.index,
      gpuClass: normaliseGpuClass(gpu.name),
      memoryGb: Number(gpu.memoryBytesTotal) / GB,
      computeCapability: parseComputeCapability(gpu.computeCapability) ?? 0,
      // No health signal on the wire yet; a card the agent lists is taken as usable.
      isHealthy: true,
    })),
    memoryGbTotal: Number(hw?.memoryBytesTotal ?? 0n) / GB,
    cpuCoresTotal: hw?.cpu?.cores ?? 0,
    diskGbFree: Number(diskBytesFree) / GB,
  };
  // An agent that names no engines predates engine lists: placement then takes it as offering any.
  // One that reports installs is new enough, so its empty list means none (still compiling).
  const isListAuthoritative = engines.length > 0 || engineInstallsOf(live).length > 0;
  return isListAuthoritative ? { ...node, engines } : node;
}

/** Since when a node has not answered, or null while it answers. */
function unreachableSince(
  live: LiveNode,
  nowMs: number,
  policy: LivenessPolicy,
  term: { startedAtMs: number; unseenSinceMs: number },
): number | null {
  if (!live.isConnected) {
    const since = live.disconnectedAtMs ?? live.lastSeenMs;
    // Gone before this term began (it left this control plane while another one led, or before a
    // restart): the same grace as a node never seen, or a new leader would rebuild the replicas
    // of agents still on their way over from the old one.
    return since < term.startedAtMs ? Math.max(since, term.unseenSinceMs) : since;
  }
  if (nodeLiveness(live, nowMs, policy) === "ready") return null;
  return unreachableAfterMs(live.lastSeenMs, policy);
}

/**
 * Every node the planner must know: live sessions, plus any node replicas were placed on that has
 * not spoken since this server started. Those count as unreachable from a moment chosen so they
 * become lost `restartGraceMs` after the start: agents reconnecting with backoff get that long to
 * come back and have their engines adopted before anything is rebuilt.
 */
export function reconcileNodes(
  registry: Pick<FleetRegistry, "all">,
  replicaNodeIds: Iterable<string>,
  nowMs: number,
  policy: LivenessPolicy,
  startedAtMs: number,
  restartGrace: { restartGraceMs: number; lostAfterMs: number } = {
    restartGraceMs: 0,
    lostAfterMs: 0,
  },
): ReconcileNode[] {
  const unseenSinceMs =
    startedAtMs + Math.max(0, restartGrace.restartGraceMs - restartGrace.lostAfterMs);
  const nodes = registry.all().map((live): ReconcileNode => {
    const since = unreachableSince(live, nowMs, policy, { startedAtMs, unseenSinceMs });
    return { node: placementNodeOf(live, since === null), unreachableSinceMs: since };
  });
  const known = new Set(nodes.map((n) => n.node.id));
  for (const id of replicaNodeIds) {
    if (known.has(id)) continue;
    known.add(id);
    const node: PlacementNode = {
      id,
      name: id,
      isReachable: false,
      labels: {},
      cards: [],
      memoryGbTotal: 0,
      cpuCoresTotal: 0,
      diskGbFree: 0,
    };
    nodes.push({ node, unreachableSinceMs: unseenSinceMs });
  }
  return nodes;
}
