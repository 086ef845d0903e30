// An external model: served by an OpenAI-compatible provider instead of the fleet, so it has no
// profiles, nothing is placed for it and it is never scraped. Its key is kept sealed in the store
// (set with `llmgw ctl model key set`), or lives in files on the control plane, read on every use
// and only from the directory the administrator allows (the server checks that; this is pure).
import { z } from "zod";

const keyFileSchema = z
  .string()
  .min(1, { error: "a key file is a path" })
  .max(4_096)
  .refine((path) => path.startsWith("/"), {
    error: "give the key file as an absolute path on the control plane",
  });

const EXTERNAL_APIS = ["openai", "comfyui"] as const;

/** A model served by an OpenAI-compatible provider: no profiles, nothing placed, never scraped. */
export const externalSchema = z.strictObject({
  /**
   * How the provider is spoken to: OpenAI's API (the request passed through), or a ComfyUI
   * server (an image request becomes a workflow, docs/engines.md "Images through ComfyUI").
   */
  api: z
    .enum(EXTERNAL_APIS, { error: `external.api is one of ${EXTERNAL_APIS.join(", ")}` })
    .default("openai"),
  url: z
    .url({ protocol: /^https?$/, error: "external.url must be an http:// or https:// URL" })
    .max(2_048),
  /** The provider's name for the model; the gateway rewrites the request's model to it. */
  /** Absent for a ComfyUI server, which has no model names; then the model's own name is sent. */
  model: z
    .string()
    .min(1, { error: "external.model is the provider's name for the model" })
    .max(256)
    .optional(),
  api_key_file: keyFileSchema.optional(),
  api_key_files: z
    .array(
      z.strictObject({
        file: keyFileSchema,
        weight: z
          .number()
          .positive({ error: "a key's weight must be above 0" })
          .max(1_000)
          .default(1),
      }),
    )
    .min(1, { error: "api_key_files needs at least one {file, weight}" })
    .max(64)
    .optional(),
});

export type ExternalModel = z.output<typeof externalSchema>;

/** An external model's keys as one list, a single api_key_file being a list of one. */
export function externalKeyFiles(external: ExternalModel): { file: string; weight: number }[] {
  if (external.api_key_files) return external.api_key_files;
  return external.api_key_file ? [{ file: external.api_key_file, weight: 1 }] : [];
}
