// The server's mirror settings (docs/mirrors.md): which mirrors nodes fetch `mirror:PATH` sources
// from, and how often each is checked. Part of the server's environment schema in config.ts.
import { z } from "zod";
import { parseMirrors, type MirrorSetting } from "@llmgw/domain";

export const MIRRORS_ENV = {
  /** NAME=URL, comma-separated, the primary first (docs/mirrors.md). */
  LLMGW_MIRRORS: z
    .string()
    .default("")
    .transform((text, ctx) => {
      const parsed = parseMirrors(text);
      if (parsed.ok) return parsed.mirrors;
      for (const error of parsed.errors) ctx.addIssue({ code: "custom", message: error });
      return z.NEVER;
    }),
  LLMGW_MIRROR_CHECK_MS: z.coerce
    .number({ message: "LLMGW_MIRROR_CHECK_MS must be a number" })
    .int("LLMGW_MIRROR_CHECK_MS must be a whole number")
    .min(200, "LLMGW_MIRROR_CHECK_MS must be at least 200")
    .max(600_000, "LLMGW_MIRROR_CHECK_MS must be at most 600000")
    .default(15_000),
};

export interface MirrorsConfig {
  /** The mirrors nodes fetch mirror:PATH sources from, the primary first. */
  list: MirrorSetting[];
  /** How often each mirror is asked whether it answers (its timeout is the same, at most 3 s). */
  checkIntervalMs: number;
}
