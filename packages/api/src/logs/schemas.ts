// The last lines of a node's agent log or of one replica's engine.
import { z } from "zod";
import { oneLine } from "../text";

export const logsViewSchema = z.object({
  node: z.string(),
  source: z.string(),
  lines: z.array(z.string()),
  sources: z.array(z.string()),
});
export type LogsView = z.infer<typeof logsViewSchema>;

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
