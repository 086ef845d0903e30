// What placement and reconciling see of the live fleet: each registered node's cards, memory and
// liveness, derived from its agent session when asked. Only what a registration fixes of a card is
// read once per registration; the reconciler keeps records that come out unchanged (KeptNodes).
import {
  ENGINES,
  countedDraw,
  derivedDrawWatts,
  nodeHoldState,
  nodeLiveness,
  normaliseGpuClass,
  parseComputeCapability,
  unreachableAfterMs,
  type LivenessPolicy,
  type CountedDraw,
  type PlacementCard,
  type PlacementNode,
  type Engine,
  type ReconcileNode,
} from "@llmgw/domain";
import { engineInstallsOf, offeredEngines } from "./engine-installs";
import type { FacilityOverlay } from "./facility-overlay";
import type { KeptNodes } from "./kept-nodes";
import type { FleetRegistry, HeardNode, LiveNode } from "./registry";

const GB = 1e9;

const isKnownEngine = (name: string): name is Engine =>
  (ENGINES as readonly string[]).includes(name);

type GpuInfo = NonNullable<LiveNode["register"]["hardware"]>["gpus"][number];

/** What a card's registration fixes, read once per registration rather than once per pass. */
interface CardBase {
  uuid: string;
  index: number;
  gpuClass: string;
  memoryGb: number;
  computeCapability: number;
  powerLimitWatts: number | undefined;
  derivedWatts: number | undefined;
}

// By the registration's card list, which a session never changes: a new registration is a new
// message. Parsing card names (a few regular expressions each) for 80,000 cards was a large part
// of making the records at 10,000 nodes, every pass.
const cardBases = new WeakMap<readonly GpuInfo[], readonly CardBase[]>();
const NO_GPUS: readonly GpuInfo[] = [];

function cardBasesOf(gpus: readonly GpuInfo[]): readonly CardBase[] {
  let bases = cardBases.get(gpus);
  if (bases === undefined) {
    bases = gpus.map((gpu) => ({
      uuid: gpu.uuid,
      index: gpu.index,
      gpuClass: normaliseGpuClass(gpu.name),
      memoryGb: Number(gpu.memoryBytesTotal) / GB,
      computeCapability: parseComputeCapability(gpu.computeCapability) ?? 0,
      powerLimitWatts: gpu.powerLimitWatts,
      derivedWatts: derivedDrawWatts(gpu.name),
    }));
    cardBases.set(gpus, bases);
  }
  return bases;
}

function placementNodeOf(
  live: LiveNode,
  isReachable: boolean,
  facility: FacilityOverlay,
): PlacementNode {
  const hw = live.register.hardware;
  const engines = offeredEngines(live).filter(isKnownEngine);
  const diskBytesFree = live.heartbeat?.diskBytesFree ?? hw?.diskBytesFree ?? 0n;
  const labels = facility.labelsOf(live.nodeId, live.register.labels);
  const held = nodeHoldState(
    live.register.nodeName,
    labels,
    facility.cordonOf(live.nodeId),
    facility.holds(),
  );
  const budgets = facility.budgetsFor(labels);
  const node: PlacementNode = {
    ...held,
    ...(budgets.length > 0 ? { powerBudgets: budgets } : {}),
    id: live.nodeId,
    name: live.register.nodeName,
    isReachable,
    labels,
    cards: cardBasesOf(hw?.gpus ?? NO_GPUS).map((card) => {
      const placed: PlacementCard = {
        index: card.index,
        gpuClass: card.gpuClass,
        memoryGb: card.memoryGb,
        computeCapability: card.computeCapability,
        // No health signal on the wire yet; a card the agent lists is taken as usable.
        isHealthy: true,
      };
      // Set, not spread from a record made for it: 80,000 cards a pass at 10,000 nodes.
      const draw = drawOf(card, live.samplesByUuid.get(card.uuid)?.powerWatts);
      if (draw !== undefined) {
        placed.drawWatts = draw.watts;
        placed.drawFrom = draw.from;
      }
      return placed;
    }),
    memoryGbTotal: Number(hw?.memoryBytesTotal ?? 0n) / GB,
    cpuCoresTotal: hw?.cpu?.cores ?? 0,
    diskGbFree: Number(diskBytesFree) / GB,
  };
  // An agent that names no engines predates engine lists: placement then takes it as offering any.
  // One that reports installs is new enough, so its empty list means none (still compiling).
  const isListAuthoritative = engines.length > 0 || engineInstallsOf(live).length > 0;
  return isListAuthoritative ? { ...node, engines } : node;
}

/**
 * A card's own draw for power budgets: the highest of its power limit (declared), its model's
 * published board power (derived) and what its last heartbeat measured. The catalog's declared
 * per-card draw is the profile's, so placement adds it per request.
 */
function drawOf(card: CardBase, measuredWatts: number | undefined): CountedDraw | undefined {
  return countedDraw({
    "power limit": card.powerLimitWatts,
    derived: card.derivedWatts,
    measured: measuredWatts,
  });
}

/** Since when a node has not answered, or null while it answers. */
function unreachableSince(
  live: LiveNode,
  heard: HeardNode,
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
  // Judged on when it was last heard as the server's own stalls excuse (FleetRegistry.heard).
  if (nodeLiveness(heard, nowMs, policy) === "ready") return null;
  return unreachableAfterMs(heard.lastSeenMs, policy);
}

/**
 * Every node the planner must know: live sessions, plus any node replicas were placed on that has
 * not spoken since this server started. Those count as unreachable from a moment chosen so they
 * become lost `restartGraceMs` after the start: agents reconnecting with backoff get that long to
 * come back and have their engines adopted before anything is rebuilt. Given `kept` (the
 * reconciler's), a node whose session, heartbeat and overlay have not changed since its record was
 * made keeps that record instead of having a new one made.
 */
export function reconcileNodes(
  registry: Pick<FleetRegistry, "all" | "facility" | "heard">,
  replicaNodeIds: Iterable<string>,
  nowMs: number,
  policy: LivenessPolicy,
  startedAtMs: number,
  restartGrace: { restartGraceMs: number; lostAfterMs: number } = {
    restartGraceMs: 0,
    lostAfterMs: 0,
  },
  kept?: Pick<KeptNodes, "recordOf">,
): ReconcileNode[] {
  const unseenSinceMs =
    startedAtMs + Math.max(0, restartGrace.restartGraceMs - restartGrace.lostAfterMs);
  const nodes = registry.all().map((live): ReconcileNode => {
    const term = { startedAtMs, unseenSinceMs };
    const since = unreachableSince(live, registry.heard(live), nowMs, policy, term);
    const isReachable = since === null;
    const make = () => placementNodeOf(live, isReachable, registry.facility);
    return {
      node: kept ? kept.recordOf(live, isReachable, registry.facility, make) : make(),
      unreachableSinceMs: since,
    };
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
