// The last lines of a node's agent log or of one replica's engine, and the lines that name one
// request, searched on the node itself.
import { z } from "zod";
import { oneLine } from "../text";

/** One line as the agent read it: when, how serious, what it says and the request it names. */
export const logRecordSchema = z.object({
  timeMs: z.number(),
  source: z.string(),
  level: z.enum(["debug", "info", "warn", "error"]),
  message: z.string(),
  requestId: z.string().optional(),
});
export type LogRecordView = z.infer<typeof logRecordSchema>;

export const logsViewSchema = z.object({
  node: z.string(),
  source: z.string(),
  lines: z.array(z.string()),
  sources: z.array(z.string()),
  /** The same lines as records; empty from an agent too old to read its lines as records. */
  records: z.array(logRecordSchema),
  /** Set when the lines were searched for a request id: how many lines the node searched. */
  linesSearched: z.number().int().nonnegative().nullable(),
});
export type LogsView = z.infer<typeof logsViewSchema>;

export const LOG_LINES_MAX = 2_000;

/** The gateway's request ids: what it accepts in X-Request-Id and what it makes itself. */
export const logRequestIdSchema = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9._:-]{1,128}$/,
    "requestId must be 1 to 128 letters, digits or . _ : - (a request id as the gateway gives it)",
  );

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
  /** Only the lines naming this request (its X-Request-Id), searched through every line kept. */
  requestId: logRequestIdSchema.optional(),
  /** Every source on the node (its agent and each engine), not only `source`. */
  everySource: z.boolean().default(false),
});
export type LogsInput = z.infer<typeof logsInputSchema>;
