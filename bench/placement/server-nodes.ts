// The server's own work before it plans, at fleet size: every reconcile pass makes each node's
// record from its agent session (`reconcileNodes`) and hands records that came out unchanged to
// the planner as last pass's objects (`KeptNodes`). Neither is in the planner's passes, and at
// 10,000 nodes they cost about as much, so they are timed here over a live registry of the same
// fleet: once after every node's heartbeat changed its free disk and card draw (every record
// made anew, each compared and found changed), once with no heartbeat since the last pass (every
// record equal to the last, handed back as it was).
import { DEFAULT_LIVENESS, type PlacementNode, type ReconcileNode } from "@llmgw/domain";
import { create, HeartbeatSchema, RegisterSchema } from "@llmgw/proto";
import { FleetRegistry, KeptNodes, reconcileNodes } from "@llmgw/server/node-records";
import type { Scenario } from "./fleet";
import { median, timeMs } from "./measure";

const GB = 1_000_000_000;
/** What the agents would report for the scenario's card classes (placement-nodes parses these). */
const CARD_NAMES: Record<string, string> = {
  "H100-80G": "NVIDIA H100 80GB HBM3",
  L40S: "NVIDIA L40S",
};

export interface ServerNodesPrepared {
  gpuNodes: number;
  registry: FleetRegistry;
  kept: KeptNodes;
  nodes: readonly PlacementNode[];
  beats: number;
  problems: string[];
}

export interface ServerNodesSample {
  /** After every node's heartbeat: records made anew, and KeptNodes finding each changed. */
  makeAfterBeatMs: number;
  keepAfterBeatMs: number;
  /** No heartbeat since the last pass: records made anew, and KeptNodes keeping every one. */
  makeQuietMs: number;
  keepQuietMs: number;
}

export interface ServerNodesMeasurement {
  gpuNodes: number;
  nodes: number;
  runs: number;
  makeAfterBeatMs: number;
  keepAfterBeatMs: number;
  makeQuietMs: number;
  keepQuietMs: number;
}

function registerOf(node: PlacementNode) {
  return create(RegisterSchema, {
    nodeId: node.id,
    nodeName: node.name,
    labels: node.labels,
    hardware: {
      memoryBytesTotal: BigInt(node.memoryGbTotal * GB),
      diskBytesFree: BigInt(node.diskGbFree * GB),
      cpu: { cores: node.cpuCoresTotal },
      gpus: node.cards.map((card) => ({
        index: card.index,
        uuid: `${node.id}-GPU-${card.index}`,
        name: CARD_NAMES[card.gpuClass] ?? card.gpuClass,
        memoryBytesTotal: BigInt(card.memoryGb * GB),
        computeCapability: card.computeCapability.toFixed(1),
        powerLimitWatts: card.drawWatts,
      })),
    },
  });
}

/** Every node's heartbeat, as agents send them every 2 s: new free disk, new measured draw. */
function beatAll(prepared: ServerNodesPrepared, nowMs: number): void {
  prepared.beats += 1;
  const beat = prepared.beats;
  prepared.nodes.forEach((node, sessionId) => {
    const heartbeat = create(HeartbeatSchema, {
      diskBytesFree: BigInt(node.diskGbFree * GB - beat * 1_000_000),
      sentAtMs: BigInt(nowMs),
      gpus: node.cards.map((card) => ({
        uuid: `${node.id}-GPU-${card.index}`,
        powerWatts: 200 + ((beat + card.index) % 50),
      })),
    });
    prepared.registry.heartbeat(node.id, sessionId, heartbeat, nowMs);
  });
}

const NOW_MS = Date.parse("2026-12-01T00:00:00Z");

function makeRecords(prepared: ServerNodesPrepared): ReconcileNode[] {
  return reconcileNodes(
    prepared.registry,
    [],
    NOW_MS + prepared.beats,
    DEFAULT_LIVENESS,
    0,
    undefined,
    prepared.kept,
  );
}

export function prepareServerNodes(scenario: Scenario): ServerNodesPrepared {
  const registry = new FleetRegistry();
  scenario.nodes.forEach((node, sessionId) =>
    registry.connect(registerOf(node), sessionId, NOW_MS),
  );
  const prepared: ServerNodesPrepared = {
    gpuNodes: scenario.gpuNodes,
    registry,
    kept: new KeptNodes(),
    nodes: scenario.nodes,
    beats: 0,
    problems: [],
  };
  beatAll(prepared, NOW_MS);
  // Warmed up and checked once: every node has a record, with the cards it registered.
  const records = prepared.kept.keep(makeRecords(prepared));
  const cards = records.reduce((sum, record) => sum + record.node.cards.length, 0);
  const expected = scenario.nodes.reduce((sum, node) => sum + node.cards.length, 0);
  if (records.length !== scenario.nodes.length || cards !== expected)
    prepared.problems.push(
      `server records: ${records.length} nodes and ${cards} cards, expected ${scenario.nodes.length} and ${expected}`,
    );
  return prepared;
}

export function sampleServerNodes(prepared: ServerNodesPrepared): ServerNodesSample {
  beatAll(prepared, NOW_MS + prepared.beats);
  let records: ReconcileNode[] = [];
  const makeAfterBeatMs = timeMs(() => (records = makeRecords(prepared)));
  const keptBefore = prepared.kept.kept;
  const keepAfterBeatMs = timeMs(() => prepared.kept.keep(records));
  if (prepared.kept.kept !== keptBefore)
    prepared.problems.push("server records: a record was kept over a heartbeat that changed it");
  const makeQuietMs = timeMs(() => (records = makeRecords(prepared)));
  const madeBefore = prepared.kept.made;
  const keepQuietMs = timeMs(() => prepared.kept.keep(records));
  if (prepared.kept.made !== madeBefore)
    prepared.problems.push("server records: a record was made anew with no heartbeat since");
  return { makeAfterBeatMs, keepAfterBeatMs, makeQuietMs, keepQuietMs };
}

export function summariseServerNodes(
  prepared: ServerNodesPrepared,
  samples: readonly ServerNodesSample[],
): ServerNodesMeasurement {
  const of = (key: keyof ServerNodesSample) => median(samples.map((sample) => sample[key]));
  return {
    gpuNodes: prepared.gpuNodes,
    nodes: prepared.nodes.length,
    runs: samples.length,
    makeAfterBeatMs: of("makeAfterBeatMs"),
    keepAfterBeatMs: of("keepAfterBeatMs"),
    makeQuietMs: of("makeQuietMs"),
    keepQuietMs: of("keepQuietMs"),
  };
}
