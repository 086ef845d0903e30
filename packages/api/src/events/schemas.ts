// Fleet events: what happened, to what, how bad. Params are structured values; the console renders
// each kind per language from them, and the CLI prints them as key=value.
import { z } from "zod";
import { oneLine } from "../text";

export const EVENT_KINDS = [
  "node.unreachable",
  "node.lost",
  "node.back",
  "node.removed",
  "node.cordoned",
  "node.draining",
  "node.uncordoned",
  "facility.held",
  "facility.released",
  "replica.placed",
  "replica.started",
  "replica.failed",
  "replica.rebuilt",
  "replica.context-shrunk",
  "model.parked",
  "model.retried",
  "model.unplaceable",
  "model.placeable",
  "model.scaled-up",
  "model.scaled-down",
  "catalog.model-added",
  "catalog.model-removed",
  "catalog.fallbacks-changed",
  "catalog.model-resized",
  "key.created",
  "key.revoked",
  "release.added",
  "release.removed",
  "upgrade.control-plane",
  "upgrade.node-started",
  "upgrade.node-done",
  "upgrade.node-failed",
  "certificate.expiring",
] as const;
export const eventKindSchema = z.enum(EVENT_KINDS);
export type EventKind = z.infer<typeof eventKindSchema>;

export const EVENT_SEVERITIES = ["info", "warning", "error"] as const;
export const eventSeveritySchema = z.enum(EVENT_SEVERITIES);
export type EventSeverity = z.infer<typeof eventSeveritySchema>;

export const EVENT_SUBJECT_TYPES = [
  "node",
  "model",
  "replica",
  "key",
  "release",
  "domain",
] as const;
export const eventSubjectTypeSchema = z.enum(EVENT_SUBJECT_TYPES);
export type EventSubjectType = z.infer<typeof eventSubjectTypeSchema>;

export const eventParamsSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
);
export type EventParams = z.infer<typeof eventParamsSchema>;

export const eventViewSchema = z.object({
  id: z.number(),
  /** ISO-8601. */
  at: z.string(),
  kind: eventKindSchema,
  severity: eventSeveritySchema,
  subjectType: eventSubjectTypeSchema,
  subjectId: z.string(),
  params: eventParamsSchema,
  isAcknowledged: z.boolean(),
});
export type EventView = z.infer<typeof eventViewSchema>;

export const EVENTS_PAGE_MAX = 500;

export const eventsListInputSchema = z
  .object({
    kinds: z.array(eventKindSchema).max(EVENT_KINDS.length).optional(),
    severities: z.array(eventSeveritySchema).max(EVENT_SEVERITIES.length).optional(),
    subjectType: eventSubjectTypeSchema.optional(),
    subjectId: oneLine("subjectId").trim().min(1, "subjectId is empty").max(200).optional(),
    /** Rows older than this id (the previous page's `nextCursor`). */
    cursor: z
      .number()
      .int("cursor must be a whole number")
      .positive("cursor must be above 0")
      .optional(),
    limit: z
      .number()
      .int("limit must be a whole number")
      .min(1, "limit must be at least 1")
      .max(EVENTS_PAGE_MAX, `limit must be at most ${EVENTS_PAGE_MAX}`)
      .default(50),
  })
  .default({ limit: 50 });
export type EventsListInput = z.infer<typeof eventsListInputSchema>;

export const eventsPageSchema = z.object({
  events: z.array(eventViewSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.number().nullable(),
});
export type EventsPage = z.infer<typeof eventsPageSchema>;

export const eventsAttentionSchema = z.object({
  /** Unacknowledged warnings and errors. */
  count: z.number(),
  /** The newest of them, for "since" wording; null when count is 0. */
  newestId: z.number().nullable(),
});
export type EventsAttention = z.infer<typeof eventsAttentionSchema>;

export const eventsAcknowledgeInputSchema = z.object({
  /** Acknowledges every warning and error up to and including this id. */
  upToId: z.number().int("upToId must be a whole number").positive("upToId must be above 0"),
});
