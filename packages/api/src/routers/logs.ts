// The last lines of a node's agent log or of one replica's engine, fetched from the node itself.
import { z } from "zod";
import { oneLine } from "../text";
import { logsViewSchema } from "../schemas-models";
import { authedProcedure, router } from "../trpc";

export const LOG_LINES_MAX = 2_000;

export const logsInputSchema = z.object({
  node: oneLine("node").trim().min(1, "node is required").max(200),
  /** "agent" for the agent's own log, or a replica id for that engine's output. */
  source: oneLine("source").trim().min(1, "source is empty").max(200).default("agent"),
  lines: z
    .number()
    .int("lines must be a whole number")
    .min(1, "lines must be at least 1")
    .max(LOG_LINES_MAX, `lines must be at most ${LOG_LINES_MAX}; the agent keeps no more`)
    .default(200),
});

export const logsRouter = router({
  get: authedProcedure
    .input(logsInputSchema)
    .output(logsViewSchema)
    .query(({ ctx, input }) => ctx.services.logs.get(input.node, input.source, input.lines)),
});
