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
  /**
   * Nodes with every card free (room for a model that needs a whole node): reachable, none of
   * their cards held or unhealthy, and no hold or cordon on them.
   */
  freeWholeNodes: z.array(z.string()),
  /**
   * The same nodes per fabric (their `llmgw.io/fabric` label; null for nodes without one, last),
   * counted by card model and cards per node: a replica spanning nodes needs them on one fabric.
   */
  freeWholeNodesByFabric: z.array(
    z.object({
      fabric: z.string().nullable(),
      nodes: z.number().int(),
      byCardModel: z.array(
        z.object({
          /** The node's GPU class, or classes joined by "+" on a node with more than one. */
          cardModel: z.string(),
          cardsPerNode: z.number().int(),
          nodes: z.number().int(),
        }),
      ),
    }),
  ),
  /** How far back `unaskedFor` looks for requests. */
  unaskedForWindowHours: z.number(),
  /** Models with a ready replica that no /v1 request asked for in that window, most cards first. */
  unaskedFor: z.array(
    z.object({
      model: z.string(),
      replicasReady: z.number().int(),
      cardsHeld: z.number().int(),
    }),
  ),
  capacity: z.array(gpuClassCapacitySchema),
  replicasReady: z.number().int(),
  replicasDesired: z.number().int(),
  modelsReady: z.number().int(),
  modelsTotal: z.number().int(),
  parked: z.array(z.object({ model: z.string(), lastError: z.string() })),
  unplaceable: z.array(z.object({ model: z.string(), reasons: z.array(z.string()) })),
});
export type ClusterStatus = z.infer<typeof clusterStatusSchema>;
