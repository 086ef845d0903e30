// The nodes the API shows: the stored inventory, overlaid with live state from agent sessions.
import {
  asc,
  eq,
  or,
  gpus,
  nodeEngineBuilds,
  nodes,
  type Database,
  type NodeEngineBuildRow,
  type NodeRow,
} from "@llmgw/db";
import {
  ServiceError,
  type GpuHistoryView,
  type GpuView,
  type NodeView,
  type NodesService,
} from "@llmgw/api";
import { must, type LivenessPolicy } from "@llmgw/domain";
import { engineBuildView } from "./engine-builds";
import { engineInstallViews, offeredEngines } from "./engine-installs";
import { GPU_HISTORY_SAMPLES_MAX } from "./gpu-history";
import { gpuRow, nodeRow } from "./inventory";
import { facilityNodes, fleetCards, nodeSummaries, type FacilityNode } from "./node-lists";
import { nodeStateOf, pcieLinkView } from "./node-view-parts";
import type { FleetRegistry, LiveNode } from "./registry";
import type { CardRow, NodeRowSet, StoredNodeRows } from "./stored-node-rows";

/**
 * The whole list and its light forms read the stored rows kept in memory (`stored`); one node
 * reads its own rows from the store.
 */
export function createNodesService(
  db: Database,
  stored: Pick<StoredNodeRows, "rows">,
  registry: FleetRegistry,
  policy: LivenessPolicy,
  nowMs: () => number,
): Omit<NodesService, "remove" | "label" | "cordon" | "engineBuild"> & {
  facilityNodes(): Promise<FacilityNode[]>;
} {
  const views = (nodeRows: NodeRow[], gpuRows: CardRow[], buildRows: NodeEngineBuildRow[]) => {
    const builds = new Map(buildRows.map((build) => [build.nodeId, build]));
    const cardsByNode = new Map<string, CardRow[]>();
    for (const card of gpuRows) {
      const cards = cardsByNode.get(card.nodeId);
      if (cards) cards.push(card);
      else cardsByNode.set(card.nodeId, [card]);
    }
    const now = nowMs();
    return nodeRows.map((row) =>
      toView(
        row,
        registry,
        cardsByNode.get(row.id) ?? [],
        builds.get(row.id),
        registry.get(row.id),
        policy,
        now,
      ),
    );
  };
  // A node is acknowledged as soon as it registers; its registration is written in a batch just
  // after. Until then the API shows it from what it registered with, so it is known at once.
  const unwritten = (live: LiveNode | undefined) => {
    if (!live?.isConnected) return null;
    const at = new Date(live.connectedAtMs);
    const gpuRows = (live.register.hardware?.gpus ?? []).map((gpu) => gpuRow(live.nodeId, gpu, at));
    return { row: { ...nodeRow(live.register, at), firstSeenAt: at }, gpuRows };
  };
  // The stored rows and, until their batched write lands, the nodes acknowledged since.
  const rows = async (): Promise<NodeRowSet> => {
    const set = await stored.rows();
    const known = new Set(set.nodeRows.map((row) => row.id));
    const pending = registry.all().flatMap((live) => {
      const node = known.has(live.nodeId) ? null : unwritten(live);
      return node ? [node] : [];
    });
    if (pending.length === 0) return set;
    const nodeRows = [...set.nodeRows, ...pending.map((node) => node.row)];
    nodeRows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const gpuRows = [...set.gpuRows, ...pending.flatMap((node) => node.gpuRows)];
    return { nodeRows, gpuRows, buildRows: set.buildRows };
  };
  const load = async (): Promise<NodeView[]> => {
    const { nodeRows, gpuRows, buildRows } = await rows();
    return views(nodeRows, gpuRows, buildRows);
  };
  // One node's rows only: at 2,000 nodes reading them all (16,000 cards) for one answer kept a
  // polled node's fresh heartbeat seconds away. Live samples come from the registry either way.
  const get = async (id: string): Promise<NodeView> => {
    const [row] = await db
      .select()
      .from(nodes)
      .where(or(eq(nodes.id, id), eq(nodes.name, id)))
      .orderBy(asc(nodes.name))
      .limit(1);
    if (!row) {
      const live = registry.get(id) ?? registry.all().find((node) => node.register.nodeName === id);
      const node = unwritten(live);
      if (node) return must(views([node.row], node.gpuRows, [])[0], "the node's view");
      throw new ServiceError("not_found", `node "${id}" is not known`, {
        code: "node.not_found",
        params: { node: id },
      });
    }
    const [gpuRows, buildRows] = await Promise.all([
      db.select().from(gpus).where(eq(gpus.nodeId, row.id)).orderBy(asc(gpus.index)),
      db.select().from(nodeEngineBuilds).where(eq(nodeEngineBuilds.nodeId, row.id)),
    ]);
    return must(views([row], gpuRows, buildRows)[0], "the node's view");
  };
  const lists = { registry, policy, nowMs };
  return {
    list: load,
    summaries: async () => nodeSummaries(await rows(), lists),
    cards: async () => fleetCards(await rows(), lists),
    facilityNodes: async () => facilityNodes(await rows(), lists),
    get,
    history: async (id) => historyView(await get(id), registry, policy),
  };
}

/** Samples carry uuids on the wire; the console charts cards by index, as the table shows them. */
function historyView(
  node: NodeView,
  registry: FleetRegistry,
  policy: LivenessPolicy,
): GpuHistoryView {
  const indexByUuid = new Map(node.gpus.map((gpu) => [gpu.uuid, gpu.index]));
  return {
    nodeId: node.id,
    windowMs: GPU_HISTORY_SAMPLES_MAX * policy.heartbeatIntervalMs,
    samples: registry.history.points(node.id).map((point) => ({
      atMs: point.atMs,
      gpus: point.cards.flatMap((card) => {
        const index = indexByUuid.get(card.uuid);
        if (index === undefined) return [];
        const { utilizationPercent, memoryBytesUsed, temperatureCelsius } = card;
        return [{ index, utilizationPercent, memoryBytesUsed, temperatureCelsius }];
      }),
    })),
  };
}

function toView(
  row: NodeRow,
  registry: Pick<FleetRegistry, "facility" | "heard">,
  cards: CardRow[],
  build: NodeEngineBuildRow | undefined,
  live: LiveNode | undefined,
  policy: LivenessPolicy,
  nowMs: number,
): NodeView {
  const heartbeat = live?.heartbeat ?? null;
  const { state, lastSeenMs } = nodeStateOf(row, live, policy, nowMs, registry);
  const { facility } = registry;
  return {
    id: row.id,
    name: row.name,
    state,
    simulated: row.isSimulated,
    simulationProfile: row.simulationProfile,
    agentVersion: row.agentVersion,
    labels: facility.labelsOf(row.id, row.labels),
    storedLabels: facility.storedLabels(row.id),
    cordon: facility.cordonOf(row.id),
    engines: live ? offeredEngines(live) : row.engines,
    engineInstalls: live ? engineInstallViews(live) : [],
    engineBuild: engineBuildView(build, live),
    features: row.features,
    firstSeenAt: row.firstSeenAt.toISOString(),
    lastSeenAt: new Date(lastSeenMs).toISOString(),
    cpu: {
      model: row.host.cpuModel,
      cores: row.host.cpuCores,
      utilizationPercent: heartbeat?.cpuUtilizationPercent ?? null,
    },
    memory: {
      bytesTotal: row.memoryBytesTotal,
      bytesUsed: optionalNumber(heartbeat?.memoryBytesUsed),
    },
    disk: { bytesTotal: row.diskBytesTotal, bytesFree: optionalNumber(heartbeat?.diskBytesFree) },
    network: networkView(live),
    heartbeatAgeSeconds:
      live?.heartbeatAtMs == null ? null : Math.max(0, nowMs - live.heartbeatAtMs) / 1000,
    os: row.host.os,
    arch: row.host.arch,
    driverVersion: row.host.driverVersion,
    gpus: cards.map((card) => gpuView(card, live)),
  };
}

/** A rate from a session that has ended says nothing about now: unknown, like card samples. */
function networkView(live: LiveNode | undefined): NodeView["network"] {
  const heartbeat = live?.isConnected ? live.heartbeat : null;
  return {
    receiveBytesPerSecond: heartbeat?.networkReceiveBytesPerSecond ?? null,
    transmitBytesPerSecond: heartbeat?.networkTransmitBytesPerSecond ?? null,
  };
}

function gpuView(card: CardRow, live: LiveNode | undefined): GpuView {
  // Samples from a session that has ended are stale: show them as unknown rather than current.
  const sample = live?.isConnected ? live.samplesByUuid.get(card.uuid) : undefined;
  return {
    index: card.index,
    uuid: card.uuid,
    name: card.name,
    memoryBytesTotal: card.memoryBytesTotal,
    memoryBytesUsed: optionalNumber(sample?.memoryBytesUsed),
    computeCapability: card.computeCapability,
    pcieGenMax: card.pcieGenMax,
    pcieGenCardMax: card.pcieGenCardMax,
    pcieGenCurrent: card.pcieGenCurrent,
    pcieWidthMax: card.pcieWidthMax,
    pcieWidthCurrent: card.pcieWidthCurrent,
    pcieLink: pcieLinkView(card),
    migEnabled: card.isMigEnabled,
    utilizationPercent: sample?.utilizationPercent ?? null,
    temperatureCelsius: sample?.temperatureCelsius ?? null,
    powerWatts: sample?.powerWatts ?? null,
  };
}

function optionalNumber(value: bigint | undefined): number | null {
  return value === undefined ? null : Number(value);
}
