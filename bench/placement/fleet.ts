// Synthetic fleets and reconcile passes for the placement benchmark, from a seeded generator so
// every run measures the same input. The shape follows P6 in docs/goals.md: per size N, N GPU nodes with
// 8 cards each (H100 and L40S), N/20 CPU-only nodes beside them, and 2 replicas per GPU node, so
// 2,000 nodes carry 16,000 GPUs and 4,000 replicas.
import type { PlacementCard, PlacementNode, PlacementRequest } from "@llmgw/domain";

/** mulberry32: small and fast; enough to spread a benchmark's input, never for secrets. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;

const CARDS_PER_GPU_NODE = 8;
const REPLICAS_PER_GPU_NODE = 2;
/** Models in the catalog per GPU node: about ten replicas each. */
const MODELS_PER_GPU_NODE = 0.2;

// Board power as the cards declare it (H100 SXM 700 W, L40S 350 W): what power budgets count.
const H100 = { gpuClass: "H100-80G", memoryGb: 80, computeCapability: 9.0, drawWatts: 700 };
const L40S = { gpuClass: "L40S", memoryGb: 48, computeCapability: 8.9, drawWatts: 350 };

// The building: GPU nodes 16 to a rack, 8 to a PDU (two per rack); CPU nodes 32 to a rack of
// their own. Each PDU is capped below what its cards would draw all busy, so every placement on
// a GPU node is checked against a budget that can refuse, and replicas spread across racks and PDUs.
const NODES_PER_RACK = 16;
const NODES_PER_PDU = 8;
const CPU_NODES_PER_RACK = 32;
const PDU_BUDGET_SHARE = 0.95;

export interface Scenario {
  gpuNodes: number;
  nodes: PlacementNode[];
  /** Every replica the pass must place, in the order a reconcile pass would ask. */
  requests: PlacementRequest[];
}

// Kinds follow the index, not the generator, so every size has the same mix: 3 in 5 GPU nodes
// are H100 and 1 in 33 is an H100 kept for judge models.
const isJudgeNode = (index: number) => index % 33 === 16;

function gpuCards(index: number): PlacementCard[] {
  const kind = index % 5 < 3 || isJudgeNode(index) ? H100 : L40S;
  return Array.from({ length: CARDS_PER_GPU_NODE }, (_, card) => ({
    index: card,
    ...kind,
    isHealthy: true,
  }));
}

function syntheticNode(
  random: Random,
  index: number,
  isGpu: boolean,
  sources: string[],
): PlacementNode {
  const labels: Record<string, string> = { zone: pick(random, ["a", "b", "c"]) };
  if (isGpu && isJudgeNode(index)) labels["llmgw.role"] = "judge";
  const cards = isGpu ? gpuCards(index) : [];
  Object.assign(labels, facilityLabels(index, isGpu));
  return {
    id: `${isGpu ? "gpu" : "cpu"}-${index}`,
    name: `${isGpu ? "gpu" : "cpu"}-${index}`,
    isReachable: random() > 0.01,
    labels,
    cards,
    memoryGbTotal: isGpu ? 2_048 : 512,
    cpuCoresTotal: isGpu ? 224 : 128,
    diskGbFree: isGpu ? 4_000 : 1_000,
    // Weights left behind by earlier replicas: they pull a model back to where it was.
    cachedSources: sources.filter(() => random() < 1 / sources.length),
    ...(isGpu ? { powerBudgets: [pduBudget(index)] } : {}),
  };
}

function facilityLabels(index: number, isGpu: boolean): Record<string, string> {
  if (!isGpu) return { "llmgw.io/rack": `cpu-r${Math.floor(index / CPU_NODES_PER_RACK)}` };
  return {
    "llmgw.io/rack": `r${Math.floor(index / NODES_PER_RACK)}`,
    "llmgw.io/pdu": `p${Math.floor(index / NODES_PER_PDU)}`,
  };
}

/** The node's PDU cap: a share of what the PDU's nodes (cards alike by index) draw all busy. */
function pduBudget(index: number) {
  const first = index - (index % NODES_PER_PDU);
  let watts = 0;
  for (let at = first; at < first + NODES_PER_PDU; at += 1)
    for (const card of gpuCards(at)) watts += card.drawWatts ?? 0;
  return {
    domain: `pdu=p${Math.floor(index / NODES_PER_PDU)}`,
    watts: Math.floor(watts * PDU_BUDGET_SHARE),
  };
}

type Template = Omit<PlacementRequest, "replicaId">;

// Kinds cycle with the index for the same reason: per 20 models, 3 on CPU (llama.cpp), 3 on a GPU
// need that H100 and L40S both meet, 9 on H100 (one in 50 models a judge) and 5 on L40S.
function syntheticModel(random: Random, index: number): Template {
  const name = `model-${index}`;
  const sizeGb = 20 + Math.floor(random() * 300);
  const base = { model: name, source: `org/${name}`, nodes: 1, sizeGb };
  const zoned = random() < 0.15;
  const nodeSelector: Record<string, string> = zoned ? { zone: pick(random, ["a", "b", "c"]) } : {};
  const slot = index % 20;
  if (slot < 3) {
    return {
      ...base,
      profile: "cpu",
      engine: "llamacpp",
      gpus: 0,
      memoryGb: 32,
      cpuCores: 16,
      nodeSelector,
    };
  }
  if (index % 50 === 10) {
    const judge = { "llmgw.role": "judge" };
    return {
      ...base,
      profile: "judge",
      engine: "vllm",
      gpu: "H100-80G",
      gpus: 2,
      memoryGb: 64,
      cpuCores: 16,
      nodeSelector: judge,
    };
  }
  if (slot < 6) {
    const gpu = { min_compute_capability: 8.9, min_memory_gb: 40 };
    const gpus = pick(random, [1, 2]);
    return {
      ...base,
      profile: "any-48g",
      engine: "vllm",
      gpu,
      gpus,
      memoryGb: 48 * gpus,
      cpuCores: 8 * gpus,
      nodeSelector,
    };
  }
  const gpu = slot < 15 ? "H100-80G" : "L40S";
  const gpus = pick(random, gpu === "L40S" ? [1, 1, 2, 4] : [1, 2, 2, 4, 8]);
  return {
    ...base,
    profile: gpu.toLowerCase(),
    engine: "vllm",
    gpu,
    gpus,
    memoryGb: 32 * gpus,
    cpuCores: 8 * gpus,
    nodeSelector,
  };
}

function shuffle<T>(random: Random, items: T[]): T[] {
  for (let index = items.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [items[index], items[other]] = [items[other] as T, items[index] as T];
  }
  return items;
}

export function buildScenario(gpuNodes: number, seed = 6): Scenario {
  const random = prng(seed * 1_000_003 + gpuNodes);
  const models = Array.from(
    { length: Math.max(1, Math.round(gpuNodes * MODELS_PER_GPU_NODE)) },
    (_, i) => syntheticModel(random, i),
  );
  const sources = models.map((model) => model.source);
  const cpuNodes = Math.max(1, Math.round(gpuNodes / 20));
  const nodes = [
    ...Array.from({ length: gpuNodes }, (_, i) => syntheticNode(random, i, true, sources)),
    ...Array.from({ length: cpuNodes }, (_, i) => syntheticNode(random, i, false, sources)),
  ];
  // Every model gets the same number of replicas; the pass asks for them in a shuffled order.
  const requests = Array.from({ length: gpuNodes * REPLICAS_PER_GPU_NODE }, (_, i) => {
    const template = models[i % models.length] as Template;
    return { ...template, replicaId: `${template.model}/r${Math.floor(i / models.length)}` };
  });
  return { gpuNodes, nodes: shuffle(random, nodes), requests: shuffle(random, requests) };
}
