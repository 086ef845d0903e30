// Cached weights no catalog model wants: what a reclaim run found and removed.
import { z } from "zod";

export const reclaimViewSchema = z.object({
  collect: z.boolean(),
  nodes: z.array(
    z.object({
      node: z.string(),
      entries: z.array(
        z.object({
          cacheName: z.string(),
          source: z.string(),
          sizeBytes: z.number(),
          removed: z.boolean(),
          refused: z.string(),
        }),
      ),
      bytesFreed: z.number(),
      error: z.string().nullable(),
    }),
  ),
});
export type ReclaimView = z.infer<typeof reclaimViewSchema>;

export const reclaimInputSchema = z
  .object({ collect: z.boolean().default(false) })
  .default({ collect: false });
