// The explorer's inputs and answer: the fleet as it stands now, reduced to what sizing needs, and
// for each model what fits where. Plain values, so the server builds them from the live registry
// and a test from a literal.
import type { SizingNote } from "../sizing";

/** A node as the explorer sees it: its free healthy cards, its memory, its measured read rate. */
export interface ExploreNode {
  name: string;
  /** Healthy cards no replica holds. */
  freeCards: readonly { gpuClass: string; memoryGb: number }[];
  /** Every card it has, free or not; a node with none is a CPU node. */
  cardsTotal: number;
  memoryGbTotal: number;
  /** The agent's measured memory read rate; absent until measured. */
  memoryReadBytesPerSecond?: number;
}

/** How a model would run on one GPU class: on its best node now, or what it would need. */
export type GpuVerdict = "fits" | "shrunk" | "needs_more_cards" | "too_large";

export interface ExploreGpuOption {
  gpuClass: string;
  cardMemoryGb: number;
  /** The node of this class with the most free cards. */
  bestNode: string;
  cardsFreeOnBestNode: number;
  /** Free cards of this class across the fleet. */
  cardsFree: number;
  verdict: GpuVerdict;
  /** Cards the plan uses (for a model that does not fit now: the cards it would need). */
  cards: number;
  tensorParallel: number;
  expertParallel: boolean;
  /** The context each sequence gets; 0 when the weights fit on no count of these cards. */
  contextTokens: number;
  contextTokensTrained?: number;
  cardsForWeights?: number;
  cardsForFullContext?: number;
  notes: SizingNote[];
}

export interface ExploreCpuOption {
  node: string;
  memoryGb: number;
  /** The weights fit in the node's memory. */
  fitsMemory: boolean;
  memoryReadGbPerSecond?: number;
  /** Expected decoding speed; absent until the node's read rate is measured. */
  tokensPerSecond?: number;
}

export interface ExploreModel {
  name: string;
  /** Where the description came from: a preset, the catalog, or a config.json given. */
  origin: "preset" | "catalog" | "config";
  architecture: string;
  parametersBillions: number;
  activeParametersBillions: number;
  weightGb: number;
  gpu: ExploreGpuOption[];
  cpu: ExploreCpuOption[];
  /** Some GPU class holds it on one node now, or some CPU node's memory does. */
  fitsNow: boolean;
  /** For a model that fits nowhere: what it needs against the best node. */
  needs?: SizingNote;
  /** What describing the model had to guess. */
  notes: SizingNote[];
}
