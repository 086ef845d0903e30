// The world of the quota simulation (quota-simulation.test.ts): a mixed fleet shared by teams with
// guarantees and limits, models with a week of demand, and engines that take a minute per phase
// and sometimes fail. Only the test reads it.
import { parseModelDefinition, type ModelDefinitionInput } from "../catalog/model-definition";
import type { PlacementNode } from "../placement/types";
import type { ScopeQuota } from "../quota/types";
import type { RandomFn } from "../seeded-random";
import { INITIAL_AUTOSCALE_STATE, type AutoscaleState } from "./autoscale";
import {
  DEFAULT_RECONCILE_POLICY,
  type DesiredModel,
  type ModelHealth,
  type ObservedReplica,
  type ReconcileNode,
  type ReconcilePolicy,
} from "./types";

export const STEP_MS = 60_000;
export const WEEK_STEPS = 7 * 24 * 60;

export const POLICY: ReconcilePolicy = {
  ...DEFAULT_RECONCILE_POLICY,
  lostAfterMs: 5 * 60_000,
  onDemandIdleMs: 20 * 60_000,
  evictAfterIdleMs: 2 * 60_000,
  failureBackoff: { baseMs: 60_000, capMs: 10 * 60_000 },
};

function gpuNode(id: string, gpuClass: string, count: number): ReconcileNode {
  const cards = Array.from({ length: count }, (_, index) => ({
    index,
    gpuClass,
    memoryGb: 80,
    computeCapability: 9,
    isHealthy: true,
  }));
  return { node: { ...cpuNode(id).node, cards }, unreachableSinceMs: null };
}

function cpuNode(id: string): ReconcileNode {
  const node: PlacementNode = {
    id,
    name: id,
    isReachable: true,
    labels: {},
    cards: [],
    memoryGbTotal: 256,
    cpuCoresTotal: 16,
    diskGbFree: 1_000,
  };
  return { node, unreachableSinceMs: null };
}

export const NODES: readonly ReconcileNode[] = [
  gpuNode("h1", "H100-80G", 4),
  gpuNode("h2", "H100-80G", 4),
  gpuNode("h3", "H100-80G", 4),
  gpuNode("l1", "L40S", 4),
  gpuNode("l2", "L40S", 4),
  cpuNode("c1"),
  cpuNode("c2"),
  cpuNode("c3"),
];

export const QUOTAS: readonly ScopeQuota[] = [
  { scope: "team:a", guarantee: { gpus: { "H100-80G": 6 } }, limit: { gpus: { "H100-80G": 8 } } },
  { scope: "project:a1", guarantee: { gpus: { "H100-80G": 2 } }, limit: null },
  {
    scope: "team:b",
    guarantee: { gpus: { L40S: 4, "H100-80G": 2 } },
    limit: { gpus: { "H100-80G": 6 } },
  },
  { scope: "team:c", guarantee: { gpus: {} }, limit: { gpus: { L40S: 5 }, cores: 16 } },
];

/** A model of the simulation: its definition, owner and how much load each replica serves. */
export interface SimModel {
  model: DesiredModel;
  /** Requests a ready replica serves per minute; more wait. */
  capacity: number;
  /** Requests per minute at the busiest hour of a working day. */
  peak: number;
  /** Whether its demand is at night (batch) rather than in working hours. */
  isNightly: boolean;
}

const h100 = (gpus: number) => [{ name: "h100", engine: "vllm" as const, gpu: "H100-80G", gpus }];
const l40s = [{ name: "l40s", engine: "vllm" as const, gpu: "L40S", gpus: 1 }];
const cpu = [{ name: "cpu", engine: "llamacpp" as const, cpu_cores: 4, memory_gb: 16 }];
const SCALING = { up_after_ms: 60_000, down_after_ms: 10 * 60_000 };

function simModel(
  input: Partial<ModelDefinitionInput> & { name: string },
  chain: string[],
  load: Omit<SimModel, "model">,
): SimModel {
  const parsed = parseModelDefinition({ source: "org/model", autoscale: SCALING, ...input });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return { model: { definition: parsed.model, revision: 1, ownerChain: chain }, ...load };
}

function simModels(): SimModel[] {
  const acme = ["org:acme"];
  return [
    simModel(
      { name: "a-chat", profiles: h100(1), replicas: { min: 1, max: 4 } },
      [...acme, "team:a"],
      { capacity: 30, peak: 110, isNightly: false },
    ),
    simModel(
      { name: "a-search", profiles: h100(2), replicas: { min: 0, max: 2 }, on_demand: true },
      [...acme, "team:a", "project:a1"],
      { capacity: 20, peak: 35, isNightly: false },
    ),
    simModel(
      { name: "b-embed", profiles: l40s, replicas: { min: 1, max: 4 }, priority_class: "high" },
      [...acme, "team:b"],
      { capacity: 40, peak: 150, isNightly: false },
    ),
    simModel(
      { name: "b-big", profiles: h100(2), replicas: { min: 1, max: 2 } },
      [...acme, "team:b"],
      { capacity: 25, peak: 40, isNightly: false },
    ),
    simModel(
      { name: "c-batch", profiles: h100(1), replicas: { min: 1, max: 6 }, priority_class: "low" },
      [...acme, "team:c"],
      { capacity: 20, peak: 140, isNightly: true },
    ),
    simModel(
      { name: "c-tags", profiles: l40s, replicas: { min: 0, max: 4 }, on_demand: true },
      [...acme, "team:c"],
      { capacity: 30, peak: 90, isNightly: true },
    ),
    simModel(
      { name: "c-cpu", profiles: cpu, replicas: { min: 1, max: 4 }, priority_class: "low" },
      [...acme, "team:c"],
      { capacity: 10, peak: 30, isNightly: false },
    ),
    simModel({ name: "shared-cpu", profiles: cpu, replicas: { min: 1, max: 2 } }, [], {
      capacity: 10,
      peak: 15,
      isNightly: false,
    }),
  ];
}

/** Requests per minute a model gets at this time: working hours or nights, weekdays busier. */
export function demandAt(sim: SimModel, nowMs: number, random: RandomFn): number {
  const hour = (nowMs / 3_600_000) % 24;
  const day = Math.floor(nowMs / 86_400_000) % 7;
  const isWorking = hour >= 8 && hour < 18;
  // Batch work runs from the evening into the morning, so borrowers still hold cards at 8.
  const isNight = hour >= 20 || hour < 10;
  const inSeason = sim.isNightly ? isNight : isWorking;
  const weekday = day < 5 ? 1 : 0.3;
  // Now and then a burst, or a quiet spell that makes an on-demand model idle.
  const roll = random();
  const burst = roll < 0.02 ? 2 : roll < 0.1 ? 0 : 1;
  const level = inSeason ? sim.peak * weekday : sim.peak * 0.05;
  return Math.round(level * burst * (0.6 + 0.8 * random()));
}

export interface SimWorld {
  random: RandomFn;
  nowMs: number;
  models: SimModel[];
  replicas: Map<string, ObservedReplica>;
  health: Map<string, ModelHealth>;
  autoscale: Map<string, AutoscaleState>;
  nextReplica: number;
}

export function newWorld(random: RandomFn): SimWorld {
  const models = simModels();
  return {
    random,
    nowMs: 0,
    models,
    replicas: new Map(),
    health: new Map(),
    autoscale: new Map(models.map((sim) => [sim.model.definition.name, INITIAL_AUTOSCALE_STATE])),
    nextReplica: 0,
  };
}
