// The cluster at a glance: capacity per GPU class, free whole nodes, what is short and why.
import { z } from "zod";

export const gpuClassCapacitySchema = z.object({
  gpuClass: z.string(),
  cardsTotal: z.number().int(),
  cardsUsed: z.number().int(),
  cardsUnhealthy: z.number().int(),
});

export const clusterStatusSchema = z.object({
  /** This cluster's id, made once and kept in the store; peers see it in x-llmgw-hop. */
  clusterId: z.string(),
  nodesReady: z.number().int(),
  nodesUnreachable: z.number().int(),
  /** Nodes with every card free (room for a model that needs a whole node). */
  freeWholeNodes: z.array(z.string()),
  capacity: z.array(gpuClassCapacitySchema),
  replicasReady: z.number().int(),
  replicasDesired: z.number().int(),
  modelsReady: z.number().int(),
  modelsTotal: z.number().int(),
  parked: z.array(z.object({ model: z.string(), lastError: z.string() })),
  unplaceable: z.array(z.object({ model: z.string(), reasons: z.array(z.string()) })),
});
export type ClusterStatus = z.infer<typeof clusterStatusSchema>;
