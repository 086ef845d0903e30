// How one resource line of a scope's quota is drawn: what is held within the guarantee, what is
// borrowed beyond it, and where the guarantee and the limit fall, as percentages of one scale
// (the largest of held, guaranteed and limit), so every bar of a line reads against the same axis.
import type { QuotaLine } from "@llmgw/api";

export interface QuotaBarGeometry {
  /** Held within the guarantee, in percent of the bar. */
  withinPercent: number;
  /** Held beyond the guarantee (borrowed), in percent, drawn after `withinPercent`. */
  borrowedPercent: number;
  /** Where the guarantee ends; null when nothing is guaranteed. */
  guaranteePercent: number | null;
  /** Where the limit is; null when not limited. */
  limitPercent: number | null;
  /** Held has reached the limit. */
  isAtLimit: boolean;
}

const percentOf = (value: number, scale: number) =>
  Math.round((Math.min(value, scale) / scale) * 1000) / 10;

export function quotaBarGeometry(line: QuotaLine): QuotaBarGeometry {
  const scale = Math.max(line.held, line.guaranteed, line.limit ?? 0) || 1;
  const within = Math.min(line.held, line.guaranteed);
  const withinPercent = percentOf(within, scale);
  return {
    withinPercent,
    borrowedPercent: Math.max(0, percentOf(line.held, scale) - withinPercent),
    guaranteePercent: line.guaranteed > 0 ? percentOf(line.guaranteed, scale) : null,
    limitPercent: line.limit === null ? null : percentOf(line.limit, scale),
    isAtLimit: line.limit !== null && line.held > 0 && line.held >= line.limit,
  };
}

/** The resource's kind and, for cards, its class: `gpus:H100-80G` → gpus, H100-80G. */
export function resourceParts(resource: string): {
  kind: "gpus" | "cores" | "memory";
  gpuClass: string;
} {
  if (resource.startsWith("gpus:"))
    return { kind: "gpus", gpuClass: resource.slice("gpus:".length) };
  return { kind: resource === "memory" ? "memory" : "cores", gpuClass: "" };
}
