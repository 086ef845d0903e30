// The reconcile pass with quotas on (P6): `planReconcile`, the planner the reconciler runs, over
// the same synthetic fleet as the placement passes, with every model owned by one of eight teams
// under one org and every team guaranteed a tenth of each card class (and cores and memory) and
// limited to half. So each pass does what a contested fleet costs: the owner chain of every
// replica summed, every placement checked against its team's and its org's limit, every replica
// classed within its guarantee or borrowed. A *full pass* places every replica from empty; a
// *no-change pass* plans every model of a settled fleet and must decide nothing.
import {
  createPlanCache,
  DEFAULT_RECONCILE_POLICY,
  parseModelDefinition,
  planReconcile,
  type DesiredModel,
  type ObservedReplica,
  type PlanCache,
  type QuotaAmounts,
  type ReconcileAction,
  type ReconcileInput,
  type ScopeQuota,
} from "@llmgw/domain";
import type { Scenario } from "./fleet";

const TEAMS = 8;
const ORG = "org:bench";

export interface ReconcileScenario {
  gpuNodes: number;
  input: Omit<ReconcileInput, "newReplicaId" | "replicas">;
  replicas: number;
  quotas: number;
  /** Kept from pass to pass as the reconciler keeps it: the nodes do not change between passes. */
  cache: PlanCache;
}

/** A definition per model of the scenario, as the catalog would hold it. */
function desiredModels(scenario: Scenario): DesiredModel[] {
  const counts = new Map<string, number>();
  for (const request of scenario.requests)
    counts.set(request.model, (counts.get(request.model) ?? 0) + 1);
  const seen = new Set<string>();
  const models: DesiredModel[] = [];
  for (const request of scenario.requests) {
    if (seen.has(request.model)) continue;
    seen.add(request.model);
    const count = counts.get(request.model) ?? 1;
    const team = `team-${models.length % TEAMS}`;
    const profile = {
      name: request.profile,
      engine: request.engine,
      ...(request.gpu === undefined ? {} : { gpu: request.gpu, gpus: request.gpus }),
      memory_gb: request.memoryGb,
      cpu_cores: request.cpuCores,
      node_selector: { labels: request.nodeSelector },
    };
    const parsed = parseModelDefinition({
      name: request.model,
      source: request.source,
      size_gb: request.sizeGb,
      profiles: [profile],
      replicas: { min: count, max: count },
      owner: { team },
    });
    if (!parsed.ok) throw new Error(`${request.model}: ${parsed.errors.join("; ")}`);
    models.push({ definition: parsed.model, revision: 1, ownerChain: [ORG, `team:${team}`] });
  }
  return models;
}

/** Each team: a tenth of every class, of the cores and of the memory guaranteed; half as limit. */
function teamQuotas(scenario: Scenario): ScopeQuota[] {
  const total: QuotaAmounts = { gpus: {}, cores: 0, memoryGb: 0 };
  for (const node of scenario.nodes) {
    for (const card of node.cards) total.gpus[card.gpuClass] = (total.gpus[card.gpuClass] ?? 0) + 1;
    total.cores = (total.cores ?? 0) + node.cpuCoresTotal;
    total.memoryGb = (total.memoryGb ?? 0) + node.memoryGbTotal;
  }
  const share = (fraction: number): QuotaAmounts => ({
    gpus: Object.fromEntries(
      Object.entries(total.gpus).map(([gpuClass, cards]) => [
        gpuClass,
        Math.floor(cards * fraction),
      ]),
    ),
    cores: Math.floor((total.cores ?? 0) * fraction),
    memoryGb: Math.floor((total.memoryGb ?? 0) * fraction),
  });
  const teams = Array.from({ length: TEAMS }, (_, at) => ({
    scope: `team:team-${at}`,
    guarantee: share(1 / 10),
    limit: share(1 / 2),
  }));
  return [{ scope: ORG, guarantee: share(0.9), limit: share(1) }, ...teams];
}

function reconcileScenario(scenario: Scenario): ReconcileScenario {
  const quotas = teamQuotas(scenario);
  const nodes = scenario.nodes.map((node) => ({ node, unreachableSinceMs: null }));
  return {
    gpuNodes: scenario.gpuNodes,
    input: {
      models: desiredModels(scenario),
      health: [],
      nodes,
      nowMs: Date.parse("2026-12-01T00:00:00Z"),
      policy: DEFAULT_RECONCILE_POLICY,
      quotas,
    },
    replicas: scenario.requests.length,
    quotas: quotas.length,
    cache: createPlanCache(),
  };
}

export function fullPass(scenario: ReconcileScenario): ReconcileAction[] {
  let next = 0;
  return planReconcile({
    ...scenario.input,
    replicas: [],
    cache: scenario.cache,
    newReplicaId: (model) => `${model}/r${(next += 1)}`,
  }).actions;
}

/** The fleet a full pass leaves, every replica ready where it was placed. */
function settledReplicas(actions: readonly ReconcileAction[]): ObservedReplica[] {
  return actions.flatMap((action) => {
    if (action.kind !== "place") return [];
    const [shard] = action.shards;
    if (!shard) return [];
    return [
      {
        id: action.replicaId,
        model: action.model,
        profile: action.profile,
        modelRevision: action.revision,
        nodeId: shard.nodeId,
        gpuIndexes: shard.cardIndexes,
        phase: "ready" as const,
        message: "",
        createdAtMs: 0,
      },
    ];
  });
}

export function noChangePass(
  scenario: ReconcileScenario,
  settled: readonly ObservedReplica[],
): ReconcileAction[] {
  return planReconcile({
    ...scenario.input,
    replicas: settled,
    cache: scenario.cache,
    newReplicaId: () => "unused",
  }).actions;
}

/** A full pass must place every replica and refuse none; a settled fleet must ask for nothing. */
function checkReconcile(
  scenario: ReconcileScenario,
  full: readonly ReconcileAction[],
  noChange: readonly ReconcileAction[],
): string[] {
  const problems: string[] = [];
  const placed = full.filter((action) => action.kind === "place").length;
  if (placed !== scenario.replicas)
    problems.push(`reconcile: ${placed} of ${scenario.replicas} replicas placed`);
  for (const action of full.filter((a) => a.kind === "unplaceable").slice(0, 3))
    problems.push(`reconcile: ${action.model} refused: ${action.summary}`);
  if (noChange.length > 0)
    problems.push(`reconcile: a settled fleet asked for ${noChange.length} actions`);
  return problems;
}

export interface ReconcilePrepared {
  scenario: ReconcileScenario;
  settled: ObservedReplica[];
  problems: string[];
}

export interface ReconcileSample {
  fullPassMs: number;
  noChangePassMs: number;
}

export interface ReconcileMeasurement {
  gpuNodes: number;
  replicas: number;
  quotas: number;
  runs: number;
  fullPassMs: number;
  fullPassMsBest: number;
  noChangePassMs: number;
}

/** Plans once from empty (warming the code up), settles the fleet, and checks both answers. */
export function prepareReconcile(scenario: Scenario): ReconcilePrepared {
  const reconcile = reconcileScenario(scenario);
  const full = fullPass(reconcile);
  const settled = settledReplicas(full);
  const problems = checkReconcile(reconcile, full, noChangePass(reconcile, settled));
  return { scenario: reconcile, settled, problems };
}
