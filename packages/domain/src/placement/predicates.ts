// The checks a node must pass to take a replica, in the order they run. Each is a small pure
// function that returns nothing when the node passes and a sentence an operator can act on when
// it does not; explain-placement prints those sentences as they are.
import type { GpuNeed } from "../catalog/model-definition";
import type { Fleet, NodeUsage } from "./fleet";
import type { PlacementCard, PlacementPolicy, PlacementRequest } from "./types";

export interface NodeCheck {
  request: PlacementRequest;
  usage: NodeUsage;
  policy: PlacementPolicy;
  /** Classes the request may use, most fitting first; empty for a CPU replica. */
  classes: readonly string[];
}

export interface Predicate {
  name: string;
  check(input: NodeCheck): string | undefined;
}

export function formatGb(value: number): string {
  return `${Math.round(value * 10) / 10} GB`;
}

/** The classes a request may use: its class, or every known class meeting its need. */
export function classesFor(request: PlacementRequest, fleet: Fleet): string[] {
  if (request.gpu === undefined) return [];
  if (typeof request.gpu === "string") return [request.gpu];
  const need = request.gpu;
  return [...fleet.classes.entries()]
    .filter(
      ([, info]) =>
        info.memoryGb >= need.min_memory_gb &&
        info.computeCapability >= need.min_compute_capability,
    )
    .sort(([nameA, a], [nameB, b]) => a.memoryGb - b.memoryGb || nameA.localeCompare(nameB, "en"))
    .map(([name]) => name);
}

function describeGpu(gpu: string | GpuNeed): string {
  if (typeof gpu === "string") return gpu;
  return `compute capability ≥ ${gpu.min_compute_capability} and ≥ ${formatGb(gpu.min_memory_gb)}`;
}

function describeNodeCards(cards: readonly PlacementCard[]): string {
  const counts = new Map<string, number>();
  for (const card of cards) counts.set(card.gpuClass, (counts.get(card.gpuClass) ?? 0) + 1);
  return [...counts].map(([gpuClass, n]) => `${n} ${gpuClass}`).join(", ");
}

/** "cards 2,5 held by qwen-7b/r2; card 3 unhealthy" for the cards of a class that are not free. */
function describeTaken(usage: NodeUsage, gpuClass: string): string {
  const byHolder = new Map<string, number[]>();
  const unhealthy: number[] = [];
  for (const card of usage.node.cards) {
    if (card.gpuClass !== gpuClass) continue;
    const holder = usage.holders.get(card.index);
    if (holder !== undefined) byHolder.set(holder, [...(byHolder.get(holder) ?? []), card.index]);
    else if (!card.isHealthy) unhealthy.push(card.index);
  }
  const cardWord = (indexes: number[]) =>
    `card${indexes.length > 1 ? "s" : ""} ${indexes.join(",")}`;
  const parts = [...byHolder].map(([holder, indexes]) => `${cardWord(indexes)} held by ${holder}`);
  if (unhealthy.length > 0) parts.push(`${cardWord(unhealthy)} unhealthy`);
  return parts.length > 0 ? ` (${parts.join("; ")})` : "";
}

const reachable: Predicate = {
  name: "reachable",
  check: ({ usage }) =>
    usage.node.isReachable
      ? undefined
      : "is unreachable; nothing is placed on it until it answers again",
};

const engine: Predicate = {
  name: "engine",
  check: ({ request, usage }) => {
    const offered = usage.node.engines;
    if (offered === undefined || offered.includes(request.engine)) return undefined;
    return `does not offer engine ${request.engine} (offers ${offered.length > 0 ? offered.join(", ") : "none"})`;
  },
};

const role: Predicate = {
  name: "role",
  check: ({ request, usage, policy }) => {
    const nodeRole = usage.node.labels[policy.roleLabel];
    if (nodeRole === undefined || request.nodeSelector[policy.roleLabel] === nodeRole)
      return undefined;
    return `has role "${nodeRole}" and takes only profiles whose node_selector asks for ${policy.roleLabel}: ${nodeRole}`;
  },
};

const selector: Predicate = {
  name: "selector",
  check: ({ request, usage }) => {
    const misses = Object.entries(request.nodeSelector)
      .filter(([key, value]) => usage.node.labels[key] !== value)
      .map(
        ([key, value]) =>
          `${key}=${value} (${usage.node.labels[key] === undefined ? "absent" : `is ${usage.node.labels[key]}`})`,
      );
    return misses.length > 0 ? `does not match node_selector: ${misses.join(", ")}` : undefined;
  },
};

const cards: Predicate = {
  name: "cards",
  check: ({ request, usage, classes }) => {
    if (request.gpu === undefined) return undefined;
    if (classes.some((gpuClass) => (usage.freeByClass.get(gpuClass) ?? 0) >= request.gpus))
      return undefined;
    const wanted = describeGpu(request.gpu);
    if (usage.node.cards.length === 0)
      return `has no GPUs; the profile needs ${request.gpus} ${wanted}`;
    const present = classes.filter((gpuClass) =>
      usage.node.cards.some((card) => card.gpuClass === gpuClass),
    );
    if (present.length === 0)
      return `has no ${wanted} cards (has ${describeNodeCards(usage.node.cards)})`;
    const best = present.reduce((a, b) =>
      (usage.freeByClass.get(b) ?? 0) > (usage.freeByClass.get(a) ?? 0) ? b : a,
    );
    const free = usage.freeByClass.get(best) ?? 0;
    return `needs ${request.gpus} free ${best} card${request.gpus > 1 ? "s" : ""}, has ${free}${describeTaken(usage, best)}`;
  },
};

const memory: Predicate = {
  name: "memory",
  check: ({ request, usage }) => {
    const free = usage.node.memoryGbTotal - usage.memoryGbUsed;
    if (request.memoryGb <= free) return undefined;
    return `needs ${formatGb(request.memoryGb)} of free memory, has ${formatGb(Math.max(free, 0))} of ${formatGb(usage.node.memoryGbTotal)}`;
  },
};

const cpu: Predicate = {
  name: "cpu",
  check: ({ request, usage }) => {
    const free = usage.node.cpuCoresTotal - usage.cpuCoresUsed;
    if (request.cpuCores <= free) return undefined;
    return `needs ${request.cpuCores} free CPU cores, has ${Math.max(free, 0)} of ${usage.node.cpuCoresTotal}`;
  },
};

// Skipped where the weights are already on the node: holding them is what used the space, and
// the node best placed to run a model must not be the one refused for it.
const disk: Predicate = {
  name: "disk",
  check: ({ request, usage }) => {
    if (request.sizeGb <= 0 || usage.cachedSources.has(request.source)) return undefined;
    if (request.sizeGb <= usage.node.diskGbFree) return undefined;
    return `needs ${formatGb(request.sizeGb)} of free disk for the weights (not cached here), has ${formatGb(usage.node.diskGbFree)}`;
  },
};

/** Cheap and absolute checks first, so the common refusals cost the least. */
export const PREDICATES: readonly Predicate[] = [
  reachable,
  engine,
  role,
  selector,
  cards,
  memory,
  cpu,
  disk,
];

/** The first failing check's name, or undefined when the node can take the replica. */
export function firstFailure(input: NodeCheck): string | undefined {
  for (const predicate of PREDICATES) {
    if (predicate.check(input) !== undefined) return predicate.name;
  }
  return undefined;
}

/** Every failing check, in order, with its reason. */
export function allFailures(input: NodeCheck): { failed: string[]; reasons: string[] } {
  const failed: string[] = [];
  const reasons: string[] = [];
  for (const predicate of PREDICATES) {
    const reason = predicate.check(input);
    if (reason === undefined) continue;
    failed.push(predicate.name);
    reasons.push(reason);
  }
  return { failed, reasons };
}
