// Releases the control plane stores for upgrades (`ctl release add` uploads them over HTTP).
import { RELEASE_VERSION_PATTERN } from "@llmgw/domain";
import { z } from "zod";

export const releaseVersionSchema = z
  .string()
  .regex(RELEASE_VERSION_PATTERN, "a release version looks like 1.2.3 or 1.2.3-rc.1");

export const releaseViewSchema = z.object({
  version: z.string(),
  file: z.string(),
  sha256: z.string(),
  bytes: z.number(),
  /** ISO-8601. */
  added: z.string(),
});
export type ReleaseView = z.infer<typeof releaseViewSchema>;

export const releaseRemoveInputSchema = z.object({ version: releaseVersionSchema });
