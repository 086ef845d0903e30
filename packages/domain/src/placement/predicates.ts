// The checks a node must pass to take a replica, in the order they run. Each is a small pure
// function that returns nothing when the node passes and a sentence an operator can act on when
// it does not; explain-placement prints those sentences as they are.
import { describeGpuNeed, meetsGpuNeed } from "../catalog/gpu-need";
import type { GpuNeed } from "../catalog/gpu-need";
import { domainLabel, domainOf } from "../facility/domains";
import { freeOf } from "./fleet";
import { breaksBudget, brokenBudget } from "./power";
import type { Fleet, NodeUsage } from "./fleet-types";
import type { PlacementCard, PlacementPolicy, PlacementRequest } from "./types";

export interface NodeCheck {
  request: PlacementRequest;
  usage: NodeUsage;
  policy: PlacementPolicy;
  /** Classes the request may use, most fitting first; empty for a CPU replica. */
  classes: readonly string[];
  /** The fleet being placed on, for checks across nodes (power budgets); absent: those pass. */
  fleet?: Fleet;
}

export interface Predicate {
  name: string;
  /** True when the node passes; cheap, so the search can ask it of every candidate. */
  passes(input: NodeCheck): boolean;
  /** Undefined when the node passes, else the sentence an operator reads. */
  check(input: NodeCheck): string | undefined;
}

function formatGb(value: number): string {
  return `${Math.round(value * 10) / 10} GB`;
}

/** The classes a request may use: its class, or every known class meeting its need. */
export function classesFor(request: PlacementRequest, fleet: Fleet): readonly string[] {
  if (request.gpu === undefined) return [];
  // A fleet's classes do not change while it places, and a pass asks the same few classes and
  // needs again and again, so each list is made once.
  if (typeof request.gpu === "string") {
    const known = fleet.classLists.get(request.gpu);
    if (known) return known;
    const classes = [request.gpu];
    fleet.classLists.set(request.gpu, classes);
    return classes;
  }
  const need = request.gpu;
  const seen = fleet.classesByNeedRecord.get(need);
  if (seen) return seen;
  const key = `${need.min_memory_gb ?? "-"}/${need.min_compute_capability ?? "-"}`;
  const known = fleet.classesByNeed.get(key);
  if (known) {
    fleet.classesByNeedRecord.set(need, known);
    return known;
  }
  const classes = [...fleet.classes.entries()]
    .filter(([, info]) => meetsGpuNeed(need, info))
    .sort(([nameA, a], [nameB, b]) => a.memoryGb - b.memoryGb || nameA.localeCompare(nameB, "en"))
    .map(([name]) => name);
  fleet.classesByNeed.set(key, classes);
  fleet.classesByNeedRecord.set(need, classes);
  return classes;
}

function describeGpu(gpu: string | GpuNeed): string {
  if (typeof gpu === "string") return gpu;
  return describeGpuNeed(gpu);
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
    const holder = usage.holders[card.index];
    if (holder !== undefined) byHolder.set(holder, [...(byHolder.get(holder) ?? []), card.index]);
    else if (!card.isHealthy) unhealthy.push(card.index);
  }
  const cardWord = (indexes: number[]) =>
    `card${indexes.length > 1 ? "s" : ""} ${indexes.join(",")}`;
  const parts = [...byHolder].map(([holder, indexes]) => `${cardWord(indexes)} held by ${holder}`);
  if (unhealthy.length > 0) parts.push(`${cardWord(unhealthy)} unhealthy`);
  return parts.length > 0 ? ` (${parts.join("; ")})` : "";
}

/**
 * A check split in two: `passes` is what every candidate node is asked and builds nothing; `reason`
 * runs only for a node that failed and is being reported, so a search over thousands of nodes
 * makes no strings for the nodes nobody reads about.
 */
function predicate(
  name: string,
  passes: (input: NodeCheck) => boolean,
  reason: (input: NodeCheck) => string,
): Predicate {
  return { name, passes, check: (input) => (passes(input) ? undefined : reason(input)) };
}

const reachable = predicate(
  "reachable",
  ({ usage }) => usage.node.isReachable,
  () => "is unreachable; nothing is placed on it until it answers again",
);

// A cordoned node or one in a held domain takes nothing new; the sentence names the hold.
const held = predicate(
  "held",
  ({ usage }) => usage.node.hold === undefined,
  ({ usage }) => usage.node.hold ?? "",
);

const engine = predicate(
  "engine",
  ({ request, usage }) =>
    usage.node.engines === undefined || usage.node.engines.includes(request.engine),
  ({ request, usage }) => {
    const offered = usage.node.engines ?? [];
    return `does not offer engine ${request.engine} (offers ${offered.length > 0 ? offered.join(", ") : "none"})`;
  },
);

const role = predicate(
  "role",
  ({ request, usage, policy }) => {
    const nodeRole = usage.node.labels[policy.roleLabel];
    return nodeRole === undefined || request.nodeSelector[policy.roleLabel] === nodeRole;
  },
  ({ usage, policy }) => {
    const nodeRole = usage.node.labels[policy.roleLabel];
    return `has role "${nodeRole}" and takes only profiles whose node_selector asks for ${policy.roleLabel}: ${nodeRole}`;
  },
);

function selectorMatches(selector: Readonly<Record<string, string>>, usage: NodeUsage): boolean {
  for (const key in selector) {
    if (Object.hasOwn(selector, key) && usage.node.labels[key] !== selector[key]) return false;
  }
  return true;
}

const selector = predicate(
  "selector",
  ({ request, usage }) => selectorMatches(request.nodeSelector, usage),
  ({ request, usage }) => {
    const misses = Object.entries(request.nodeSelector)
      .filter(([key, value]) => usage.node.labels[key] !== value)
      .map(
        ([key, value]) =>
          `${key}=${value} (${usage.node.labels[key] === undefined ? "absent" : `is ${usage.node.labels[key]}`})`,
      );
    return `does not match node_selector: ${misses.join(", ")}`;
  },
);

function hasFreeCards({ request, usage, classes }: NodeCheck): boolean {
  if (request.gpu === undefined) return true;
  for (const gpuClass of classes) if (freeOf(usage, gpuClass) >= request.gpus) return true;
  return false;
}

function cardsReason({ request, usage, classes }: NodeCheck): string {
  const wanted = describeGpu(request.gpu ?? "");
  if (usage.node.cards.length === 0)
    return `has no GPUs; the profile needs ${request.gpus} ${wanted}`;
  const present = classes.filter((gpuClass) =>
    usage.node.cards.some((card) => card.gpuClass === gpuClass),
  );
  if (present.length === 0)
    return `has no ${wanted} cards (has ${describeNodeCards(usage.node.cards)})`;
  const best = present.reduce((a, b) => (freeOf(usage, b) > freeOf(usage, a) ? b : a));
  const free = freeOf(usage, best);
  return `needs ${request.gpus} free ${best} card${request.gpus > 1 ? "s" : ""}, has ${free}${describeTaken(usage, best)}`;
}

const cards = predicate("cards", hasFreeCards, cardsReason);

const memory = predicate(
  "memory",
  ({ request, usage }) => request.memoryGb <= usage.node.memoryGbTotal - usage.memoryGbUsed,
  ({ request, usage }) => {
    const free = usage.node.memoryGbTotal - usage.memoryGbUsed;
    return `needs ${formatGb(request.memoryGb)} of free memory, has ${formatGb(Math.max(free, 0))} of ${formatGb(usage.node.memoryGbTotal)}`;
  },
);

const cpu = predicate(
  "cpu",
  ({ request, usage }) => request.cpuCores <= usage.node.cpuCoresTotal - usage.cpuCoresUsed,
  ({ request, usage }) => {
    const free = usage.node.cpuCoresTotal - usage.cpuCoresUsed;
    return `needs ${request.cpuCores} free CPU cores, has ${Math.max(free, 0)} of ${usage.node.cpuCoresTotal}`;
  },
);

// Skipped where the weights are already on the node: holding them is what used the space, and
// the node best placed to run a model must not be the one refused for it.
const disk = predicate(
  "disk",
  ({ request, usage }) =>
    request.sizeGb <= 0 ||
    usage.cachedSources.has(request.source) ||
    request.sizeGb <= usage.node.diskGbFree,
  ({ request, usage }) =>
    `needs ${formatGb(request.sizeGb)} of free disk for the weights (not cached here), has ${formatGb(usage.node.diskGbFree)}`,
);

// A replica kept within a rack, row or room can use only nodes that say which one they are in.
const domain = predicate(
  "domain",
  ({ request, usage }) =>
    request.keepWithin === undefined ||
    request.nodes <= 1 ||
    domainOf(usage.node.labels, request.keepWithin) !== undefined,
  ({ request }) => {
    const kind = request.keepWithin ?? "rack";
    return `has no ${domainLabel(kind)} label; the profile keeps a replica's shards within one ${kind} (keep_within)`;
  },
);

/** The class whose cards the power check counts: the first with enough free cards. */
function powerClass({ request, usage, classes }: NodeCheck): string | undefined {
  for (const name of classes) if (freeOf(usage, name) >= request.gpus) return name;
  return undefined;
}

function powerProblem(check: NodeCheck): string | undefined {
  const { usage, fleet } = check;
  if (fleet === undefined || usage.node.powerBudgets === undefined) return undefined;
  return brokenBudget(fleet, usage, check.request, powerClass(check));
}

// Last: it needs the cards the replica would take, which the checks before it make sure exist.
// The search asks every candidate, so passing builds no sentence; only a refusal read does.
const power = predicate(
  "power",
  (check) => {
    const { usage, fleet } = check;
    if (fleet === undefined || usage.node.powerBudgets === undefined) return true;
    return !breaksBudget(fleet, usage, check.request, powerClass(check));
  },
  (check) => powerProblem(check) ?? "",
);

/** Cheap and absolute checks first, so the common refusals cost the least. */
export const PREDICATES: readonly Predicate[] = [
  reachable,
  held,
  engine,
  role,
  selector,
  domain,
  cards,
  memory,
  cpu,
  disk,
  power,
];

/**
 * Whether the node can take the replica; what the search asks, with no reasons built. PREDICATES'
 * checks in PREDICATES' order, each called by name: one call through the list's entries met
 * eleven functions, so V8 inlined none of them (keep the two in step).
 */
export function nodeFits(input: NodeCheck): boolean {
  return (
    reachable.passes(input) &&
    held.passes(input) &&
    engine.passes(input) &&
    role.passes(input) &&
    selector.passes(input) &&
    domain.passes(input) &&
    cards.passes(input) &&
    memory.passes(input) &&
    cpu.passes(input) &&
    disk.passes(input) &&
    power.passes(input)
  );
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
