// The `comfyui:` block of a model definition: which workflow turns an image request into a graph
// (a built-in, or an API-format JSON file on the control plane), which diffusion model file a
// built-in loads, and the sampling steps a file workflow gets for `{{steps}}`.
import { z } from "zod";
import { BUILTIN_WORKFLOWS, isBuiltinWorkflow } from "./builtin-workflows";

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,254}$/;

export const comfyuiSettingsSchema = z.strictObject({
  workflow: z
    .string()
    .max(4_096)
    .refine(
      (value) => isBuiltinWorkflow(value) || (value.startsWith("/") && value.endsWith(".json")),
      {
        error: `comfyui.workflow is ${BUILTIN_WORKFLOWS.join(" or ")}, or the absolute path of an API-format .json file on the control plane`,
      },
    )
    .default("flux-schnell"),
  /** The diffusion model file a built-in's UNETLoader loads, as ComfyUI lists it. */
  checkpoint: z
    .string()
    .regex(FILE_NAME, {
      error: "comfyui.checkpoint is a file name in ComfyUI's models folder, with no directories",
    })
    .optional(),
  steps: z
    .int({ error: "comfyui.steps is a whole number" })
    .min(1, { error: "comfyui.steps must be at least 1" })
    .max(200, { error: "comfyui.steps must be at most 200" })
    .optional(),
});

export type ComfyuiSettings = z.output<typeof comfyuiSettingsSchema>;
