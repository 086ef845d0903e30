// A card's derived draw: the board power its maker publishes for the model, used against power
// budgets when neither the catalog nor the card's own power limit says more. Figures are the
// maximum board power (TDP/TGP) of each model's datasheet; the first pattern matching the name
// nvidia-smi reports wins, so the narrower names (PCIe, NVL, L40S) come before the broader ones.

interface BoardPower {
  pattern: RegExp;
  watts: number;
}

const BOARD_POWER: readonly BoardPower[] = [
  // NVIDIA B200 datasheet (DGX B200 / HGX B200): up to 1000 W per GPU.
  { pattern: /\bB200\b/, watts: 1_000 },
  // NVIDIA H200 Tensor Core GPU datasheet: H200 NVL up to 600 W, H200 SXM up to 700 W.
  { pattern: /\bH200\b.*\bNVL\b/, watts: 600 },
  { pattern: /\bH200\b/, watts: 700 },
  // NVIDIA H100 Tensor Core GPU datasheet: PCIe 300–350 W, NVL 350–400 W, SXM up to 700 W.
  { pattern: /\bH100\b.*\bPCIE\b/, watts: 350 },
  { pattern: /\bH100\b.*\bNVL\b/, watts: 400 },
  { pattern: /\bH100\b/, watts: 700 },
  // NVIDIA A100 Tensor Core GPU datasheet: PCIe 80GB 300 W, SXM 400 W.
  { pattern: /\bA100\b.*\bPCIE\b/, watts: 300 },
  { pattern: /\bA100\b/, watts: 400 },
  // NVIDIA L40S datasheet: 350 W; NVIDIA L40 datasheet: 300 W; NVIDIA L4 datasheet: 72 W.
  { pattern: /\bL40S\b/, watts: 350 },
  { pattern: /\bL40\b/, watts: 300 },
  { pattern: /\bL4\b/, watts: 72 },
  // NVIDIA A10 datasheet: 150 W; NVIDIA T4 datasheet: 70 W.
  { pattern: /\bA10\b/, watts: 150 },
  { pattern: /\bT4\b/, watts: 70 },
  // NVIDIA RTX 6000 Ada Generation datasheet: 300 W; NVIDIA RTX A6000 datasheet: 300 W.
  { pattern: /\bRTX 6000 ADA\b/, watts: 300 },
  { pattern: /\bRTX A6000\b/, watts: 300 },
  // GeForce RTX 4090 specifications (nvidia.com): 450 W total graphics power; RTX 3090: 350 W.
  { pattern: /\bRTX 4090\b/, watts: 450 },
  { pattern: /\bRTX 3090\b/, watts: 350 },
];

/** The published board power of a card model by the name nvidia-smi gives; undefined: unknown. */
export function derivedDrawWatts(cardName: string): number | undefined {
  const name = cardName.toUpperCase().replace(/[\s_-]+/g, " ");
  return BOARD_POWER.find((entry) => entry.pattern.test(name))?.watts;
}

/** Where a card's counted draw came from, as explain names it. */
export type DrawSource = "catalog" | "power limit" | "derived" | "measured";

/** The draw counted for a card and which of its figures gave it. */
export interface CountedDraw {
  watts: number;
  from: DrawSource;
}

/** The order figures are weighed in: on a tie the earlier one is counted. */
const DRAW_SOURCES = ["catalog", "power limit", "derived", "measured"] as const;

/**
 * The highest of a card's figures (declared: the catalog's per-card draw or the card's power limit;
 * derived from its model; measured by its last heartbeat); undefined when none is above zero. On a
 * tie the earlier source is named, so a declared figure wins over the same derived one.
 */
export function countedDraw(
  figures: Partial<Record<DrawSource, number | null | undefined>>,
): CountedDraw | undefined {
  // The highest figure by plain numbers, one record at the end: the server asks this for every
  // card of every node each reconcile pass (80,000 at 10,000 nodes).
  let watts = 0;
  let from: DrawSource | undefined;
  for (const source of DRAW_SOURCES) {
    const figure = figures[source];
    if (figure !== null && figure !== undefined && figure > 0 && figure > watts) {
      watts = figure;
      from = source;
    }
  }
  return from === undefined ? undefined : { watts, from };
}
