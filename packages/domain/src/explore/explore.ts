// What fits this fleet now: for one model description, the plan on each GPU class's best node and
// the expected speed on each CPU node, and for a model that fits nowhere, what it needs against
// the best node.
import { planModel, type ModelDescription, type SizingNote } from "../sizing";
import { billionsOf, gbOf, note } from "../sizing/notes";
import { activeWeightBytes, cpuTokensPerSecond } from "./cpu-speed";
import { gpuClassRooms, gpuOption } from "./gpu-options";
import type { ExploreCpuOption, ExploreGpuOption, ExploreModel, ExploreNode } from "./types";

export interface ExploreEntry {
  name: string;
  origin: ExploreModel["origin"];
  description: ModelDescription;
}

const GB = 1e9;

function weightBytesOf(description: ModelDescription): number {
  // The plan's weight bytes do not depend on the cards; one nominal card asks for them.
  return planModel(description, { cards: { memoryGb: 80, count: 1 } }).weightBytes;
}

function cpuOptions(
  nodes: readonly ExploreNode[],
  description: ModelDescription,
  weightBytes: number,
): ExploreCpuOption[] {
  const readBytes = activeWeightBytes(weightBytes, description.parameters);
  return nodes
    .filter((node) => node.cardsTotal === 0)
    .map((node) => {
      const rate = node.memoryReadBytesPerSecond;
      return {
        node: node.name,
        memoryGb: node.memoryGbTotal,
        fitsMemory: weightBytes <= node.memoryGbTotal * GB,
        memoryReadGbPerSecond: rate === undefined ? undefined : gbOf(rate),
        tokensPerSecond: cpuTokensPerSecond(rate, readBytes),
      };
    })
    .sort((a, b) => (a.node < b.node ? -1 : 1));
}

/** Cards a class's best node lacks; a class no count of whose cards holds the model lacks most. */
function shortfall(option: ExploreGpuOption): number {
  return (option.cardsForWeights ?? Number.MAX_SAFE_INTEGER) - option.cardsFreeOnBestNode;
}

function gpuNeeds(options: readonly ExploreGpuOption[]): SizingNote | undefined {
  // The best node: the one that lacks the fewest cards, then the one with the largest cards.
  const ranked = [...options].sort(
    (a, b) => shortfall(a) - shortfall(b) || b.cardMemoryGb - a.cardMemoryGb,
  );
  const best = ranked[0];
  if (!best) return undefined;
  const params = {
    ...{ gpuClass: best.gpuClass, cardGb: best.cardMemoryGb, node: best.bestNode },
    ...{ free: best.cardsFreeOnBestNode, cards: best.cardsForWeights ?? 0 },
  };
  if (best.cardsForWeights === undefined)
    return note(
      "sizing.explore_needs_larger_cards",
      params,
      `no count of ${best.gpuClass} (${best.cardMemoryGb} GB) holds it; the best node, ${best.bestNode}, has ${best.cardsFreeOnBestNode} free`,
    );
  return note(
    "sizing.explore_needs_cards",
    params,
    `needs ${best.cardsForWeights} ${best.gpuClass} (${best.cardMemoryGb} GB) on one node; the best node, ${best.bestNode}, has ${best.cardsFreeOnBestNode} free`,
  );
}

function cpuNeeds(options: readonly ExploreCpuOption[], weightBytes: number): SizingNote {
  const best = [...options].sort((a, b) => b.memoryGb - a.memoryGb)[0];
  if (!best)
    return note("sizing.explore_no_room", {}, "the fleet has no free card and no CPU node");
  const params = { weightGb: gbOf(weightBytes), node: best.node, memoryGb: best.memoryGb };
  return note(
    "sizing.explore_needs_memory",
    params,
    `the weights take ${params.weightGb} GB; the CPU node with the most memory, ${best.node}, has ${best.memoryGb} GB`,
  );
}

/** What fits for one model on the fleet `nodes` describe. */
export function exploreModel(entry: ExploreEntry, nodes: readonly ExploreNode[]): ExploreModel {
  const { description } = entry;
  const weightBytes = weightBytesOf(description);
  const gpu = gpuClassRooms(nodes).map((room) => gpuOption(description, room));
  const cpu = cpuOptions(nodes, description, weightBytes);
  const fitsNow =
    gpu.some((option) => option.verdict === "fits" || option.verdict === "shrunk") ||
    cpu.some((option) => option.fitsMemory);
  return {
    ...{ name: entry.name, origin: entry.origin, architecture: description.architecture },
    parametersBillions: billionsOf(description.parameters.total),
    activeParametersBillions: billionsOf(description.parameters.active),
    weightGb: gbOf(weightBytes),
    ...{ gpu, cpu, fitsNow },
    needs: fitsNow ? undefined : (gpuNeeds(gpu) ?? cpuNeeds(cpu, weightBytes)),
    notes: description.notes,
  };
}
