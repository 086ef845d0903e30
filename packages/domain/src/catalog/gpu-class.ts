// A GPU class is the name a catalog uses for "cards that are interchangeable": same chip, same
// memory. Agents report the marketing name nvidia-smi prints; this module owns the one mapping
// from that name to a class, so the agent, placement and the console can never disagree on it.

/** What a class name looks like: letters, digits, dots and dashes, starting with a letter or digit. */
export const GPU_CLASS_PATTERN = /^[A-Za-z0-9][A-Za-z0-9.-]{0,63}$/;

// Words that say who made or marketed the card, or how it is attached, but not what it can hold.
// "H100 PCIe" and "H100 SXM5" with the same memory serve the same models, so they share a class.
const DROPPED_WORDS = new Set([
  "NVIDIA",
  "GEFORCE",
  "TESLA",
  "PCIE",
  "SXM",
  "SXM2",
  "SXM3",
  "SXM4",
  "SXM5",
  "HBM2",
  "HBM2E",
  "HBM3",
  "HBM3E",
]);

const MEMORY_WORD = /^(\d+)GB$/;
const MIG_SUFFIX = /\s+MIG\s+(\d+g\.\d+gb)\s*$/i;

/**
 * Maps a card name as nvidia-smi or NVML prints it to its class:
 * "NVIDIA H100 80GB HBM3" → "H100-80G", "NVIDIA A100-SXM4-40GB" → "A100-40G",
 * "NVIDIA L40S" → "L40S", "NVIDIA GeForce RTX 2080 SUPER" → "RTX-2080-SUPER".
 * A MIG instance is a class of its own, named after its parent and profile:
 * "NVIDIA H200 MIG 1g.18gb" (or name "NVIDIA H200" with migProfile "1g.18gb") → "H200-MIG-1g.18gb".
 * The memory in the name is kept because it separates cards that hold different models
 * (A100 40GB vs 80GB); names without one (H200, L40S) have a single size.
 */
export function normaliseGpuClass(cardName: string, migProfile?: string): string {
  const migMatch = MIG_SUFFIX.exec(cardName);
  const profile = migProfile ?? migMatch?.[1];
  const baseName = migMatch ? cardName.slice(0, migMatch.index) : cardName;
  const words = baseName
    .toUpperCase()
    .split(/[\s_-]+/)
    .filter((word) => word.length > 0 && !DROPPED_WORDS.has(word));
  let memorySuffix = "";
  const kept: string[] = [];
  for (const word of words) {
    const memory = MEMORY_WORD.exec(word);
    if (memory) memorySuffix = `${memory[1]}G`;
    else kept.push(word.replace(/[^A-Z0-9.]/g, ""));
  }
  const parts = kept.filter((word) => word.length > 0);
  if (memorySuffix) parts.push(memorySuffix);
  const base = parts.length > 0 ? parts.join("-") : "UNKNOWN";
  return profile ? `${base}-MIG-${profile.toLowerCase()}` : base;
}

/** "8.9" → 8.9; compute capability as nvidia-smi prints it (`compute_cap`). */
export function parseComputeCapability(text: string): number | undefined {
  const value = Number.parseFloat(text.trim());
  return Number.isFinite(value) ? value : undefined;
}
