// The workflows llmgw ships: FLUX.1 [schnell] and [dev] in ComfyUI's API format, the graph of
// ComfyUI's own flux example (separate diffusion model, T5 and CLIP-L encoders, the flux VAE).
// They are templates like a workflow file, so both go through the same filling.
import type { WorkflowGraph } from "./workflow-graph";

export const BUILTIN_WORKFLOWS = ["flux-schnell", "flux-dev"] as const;
export type BuiltinWorkflow = (typeof BUILTIN_WORKFLOWS)[number];

export function isBuiltinWorkflow(name: string): name is BuiltinWorkflow {
  return (BUILTIN_WORKFLOWS as readonly string[]).includes(name);
}

/** Sampling steps each built-in was distilled or tuned for; a file workflow gets the model's own. */
export const BUILTIN_STEPS: Record<BuiltinWorkflow, number> = { "flux-schnell": 4, "flux-dev": 20 };

/** The diffusion model file each built-in loads unless the model's comfyui block names another. */
export const BUILTIN_CHECKPOINTS: Record<BuiltinWorkflow, string> = {
  "flux-schnell": "flux1-schnell.safetensors",
  "flux-dev": "flux1-dev.safetensors",
};

/** FLUX.1 [dev] is guidance-distilled: its guidance goes in through FluxGuidance, cfg stays 1. */
const DEV_GUIDANCE = 3.5;

export function builtinWorkflow(name: BuiltinWorkflow, checkpoint: string): WorkflowGraph {
  const positive = name === "flux-dev" ? ["10", 0] : ["4", 0];
  const graph: WorkflowGraph = {
    "1": { class_type: "UNETLoader", inputs: { unet_name: checkpoint, weight_dtype: "default" } },
    "2": {
      class_type: "DualCLIPLoader",
      inputs: {
        clip_name1: "t5xxl_fp8_e4m3fn.safetensors",
        clip_name2: "clip_l.safetensors",
        type: "flux",
      },
    },
    "3": { class_type: "VAELoader", inputs: { vae_name: "ae.safetensors" } },
    "4": { class_type: "CLIPTextEncode", inputs: { text: "{{prompt}}", clip: ["2", 0] } },
    "5": {
      class_type: "EmptySD3LatentImage",
      inputs: { width: "{{width}}", height: "{{height}}", batch_size: 1 },
    },
    "6": {
      class_type: "KSampler",
      inputs: {
        model: ["1", 0],
        positive,
        negative: ["7", 0],
        latent_image: ["5", 0],
        seed: "{{seed}}",
        steps: "{{steps}}",
        cfg: 1,
        sampler_name: "euler",
        scheduler: "simple",
        denoise: 1,
      },
    },
    "7": { class_type: "CLIPTextEncode", inputs: { text: "", clip: ["2", 0] } },
    "8": { class_type: "VAEDecode", inputs: { samples: ["6", 0], vae: ["3", 0] } },
    "9": { class_type: "SaveImage", inputs: { images: ["8", 0], filename_prefix: "llmgw" } },
  };
  if (name === "flux-dev")
    graph["10"] = {
      class_type: "FluxGuidance",
      inputs: { conditioning: ["4", 0], guidance: DEV_GUIDANCE },
    };
  return graph;
}
