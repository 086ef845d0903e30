// Mirrors: the servers in the company's network nodes fetch mirror:PATH sources from, named in the
// server's settings (LLMGW_MIRRORS). Each is checked on a timer; what it holds for the catalog is
// looked up file by file.
import { z } from "zod";
import { oneLine } from "../text";

export const mirrorNameSchema = oneLine("mirror")
  .trim()
  .min(1, "name the mirror (see `llmgw ctl mirror list`)")
  .max(32, "mirror: at most 32 characters");

export const mirrorRemoveInputSchema = z.object({
  mirror: mirrorNameSchema,
  /** The file's path on the mirror, as a mirror:PATH source names it. */
  path: oneLine("path").trim().min(1, "name the file's path on the mirror").max(1_024),
});

export const mirrorFileViewSchema = z.object({
  /** The path on the mirror, as sources name it after `mirror:`. */
  path: z.string(),
  /** The catalog models (and `MODEL:ADAPTER`s) that load it. */
  models: z.array(z.string()),
  /** Whether the mirror answered HEAD for it with 200; null before the first look. */
  isHeld: z.boolean().nullable(),
});

export const mirrorViewSchema = z.object({
  name: z.string(),
  baseUrl: z.string(),
  /** The first of the settings: nodes are sent it first while it answers. */
  isPrimary: z.boolean(),
  /** up: its last check answered; down: it did not; unknown: not checked yet. */
  state: z.enum(["up", "down", "unknown"]),
  /** ISO-8601; null before the first check. */
  checkedAt: z.string().nullable(),
  /** How long its last check took; null before the first. */
  latencyMs: z.number().nullable(),
  /** Why it is down, when it is. */
  lastError: z.string().nullable(),
  /** Every file the catalog loads from the mirrors, and whether this mirror holds it. */
  files: z.array(mirrorFileViewSchema),
});
export type MirrorView = z.infer<typeof mirrorViewSchema>;

export const mirrorRemoveResultSchema = z.object({ mirror: z.string(), path: z.string() });
export type MirrorRemoveResult = z.infer<typeof mirrorRemoveResultSchema>;
