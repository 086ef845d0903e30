// What a profile asks of a card: a class by name ("H100-80G"), or a need (a least compute
// capability, a least memory, or both) that stands for every class in the cluster meeting it.
// Either bound of a need may be left out: a catalog meant for many sites often knows only how
// much memory a model takes.
import { z } from "zod";
import { GPU_CLASS_PATTERN } from "./gpu-class";

export const GPU_NEED_EXAMPLE =
  "{min_memory_gb: 40} or {min_compute_capability: 8.0, min_memory_gb: 24}";

export const gpuNeedSchema = z
  .strictObject({
    min_compute_capability: z
      .number({ error: "write the least compute capability as a number such as 8.0" })
      .min(1, { error: "compute capability starts at 1; write a value such as 7.5 or 8.0" })
      .max(20, { error: "no card has a compute capability above 20; write a value such as 9.0" })
      .optional(),
    min_memory_gb: z
      .number({ error: "write the least card memory in GB as a number such as 40" })
      .positive({ error: "write the least card memory in GB, above 0, such as 40" })
      .max(4096, { error: "no card has more than 4096 GB; write the memory in GB, such as 80" })
      .optional(),
  })
  .refine((need) => need.min_compute_capability !== undefined || need.min_memory_gb !== undefined, {
    error: `a need names at least one bound; write ${GPU_NEED_EXAMPLE}`,
  });

export type GpuNeed = z.output<typeof gpuNeedSchema>;

const gpuClassSchema = z.string().regex(GPU_CLASS_PATTERN, {
  error: 'a GPU class is letters, digits, "." and "-" such as "H100-80G" or "L40S"',
});

// A union reports the branch whose type matched; anything else (a number, a list) gets this.
export const gpuSchema = z.union([gpuClassSchema, gpuNeedSchema], {
  error: `write a GPU class such as "H100-80G", or a need such as ${GPU_NEED_EXAMPLE}`,
});

/** Whether a card of this memory and compute capability meets the need. */
export function meetsGpuNeed(
  need: GpuNeed,
  card: { memoryGb: number; computeCapability: number },
): boolean {
  return (
    card.memoryGb >= (need.min_memory_gb ?? 0) &&
    card.computeCapability >= (need.min_compute_capability ?? 0)
  );
}

/** "compute capability ≥ 8 and ≥ 24 GB", naming only the bounds the need sets. */
export function describeGpuNeed(need: GpuNeed): string {
  const parts: string[] = [];
  if (need.min_compute_capability !== undefined)
    parts.push(`compute capability ≥ ${need.min_compute_capability}`);
  if (need.min_memory_gb !== undefined)
    parts.push(`≥ ${Math.round(need.min_memory_gb * 10) / 10} GB`);
  return parts.join(" and ");
}
