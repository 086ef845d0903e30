// The fleet's nodes: inventory with live state, and a node's recent card samples.
import {
  gpuHistorySchema,
  nodeIdInputSchema,
  nodeEngineBuildInputSchema,
  nodeLabelInputSchema,
  nodeViewSchema,
  removedNodeSchema,
} from "./schemas";
import { fleetCardsSchema, nodeSummarySchema } from "./summary";
import { nodesPageInputSchema, nodesPageOf, nodesPageSchema } from "./table";
import { nodeCordonInputSchema } from "../facility/schemas";
import { adminProcedure, authedProcedure, listQuery, router } from "../trpc";

export const nodesRouter = router({
  /** Every node in full: the CLI's list. The console polls the two light forms below. */
  list: listQuery(nodeViewSchema, (services) => services.nodes.list()),

  /** A summary per node: what the nodes table shows (P9: a tenth of `list` at 2,000 nodes). */
  summary: listQuery(nodeSummarySchema, (services) => services.nodes.summaries()),

  /** A window of the summaries, filtered and sorted on the server: the console's nodes table. */
  page: authedProcedure
    .input(nodesPageInputSchema)
    .output(nodesPageSchema)
    .query(async ({ ctx, input }) => nodesPageOf(await ctx.services.nodes.summaries(), input)),

  /** Every card's figures as columns, for the heatmap. */
  cards: authedProcedure.output(fleetCardsSchema).query(({ ctx }) => ctx.services.nodes.cards()),

  get: authedProcedure
    .input(nodeIdInputSchema)
    .output(nodeViewSchema)
    .query(({ ctx, input }) => ctx.services.nodes.get(input.id)),

  history: authedProcedure
    .input(nodeIdInputSchema)
    .output(gpuHistorySchema)
    .query(({ ctx, input }) => ctx.services.nodes.history(input.id)),

  /** Sets and removes labels kept in the store, which win over those the node's agent reports. */
  label: adminProcedure
    .input(nodeLabelInputSchema)
    .output(nodeViewSchema)
    .mutation(({ ctx, input }) => ctx.services.nodes.label(input, ctx.actor)),

  /** Cordons (nothing new placed), drains (replicas moved off with surge) or uncordons. */
  cordon: adminProcedure
    .input(nodeCordonInputSchema)
    .output(nodeViewSchema)
    .mutation(({ ctx, input }) => ctx.services.nodes.cordon(input, ctx.actor)),

  /** Chooses the GPU engine build (auto, cu13, cu129, none) the node installs; sent to it at once. */
  engineBuild: adminProcedure
    .input(nodeEngineBuildInputSchema)
    .output(nodeViewSchema)
    .mutation(({ ctx, input }) => ctx.services.nodes.engineBuild(input, ctx.actor)),

  /** Revokes the node's certificates: its next connection is refused until it joins again. */
  remove: adminProcedure
    .input(nodeIdInputSchema)
    .output(removedNodeSchema)
    .mutation(({ ctx, input }) => ctx.services.nodes.remove(input.id, ctx.actor)),
});
