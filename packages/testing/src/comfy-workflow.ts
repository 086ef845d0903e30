// A small ComfyUI workflow in API format (checkpoint → prompt → latent → KSampler → decode → save),
// as the tests that queue one through the simulator, the gate or a replica send it.
export interface CheckpointWorkflowOptions {
  checkpoint: string;
  text: string;
  width: number;
  height: number;
  seed: number;
  filenamePrefix: string;
}

export function checkpointWorkflow(options: CheckpointWorkflowOptions): Record<string, unknown> {
  const { checkpoint, text, width, height, seed, filenamePrefix } = options;
  return {
    "4": { class_type: "CheckpointLoaderSimple", inputs: { ckpt_name: checkpoint } },
    "6": { class_type: "CLIPTextEncode", inputs: { text, clip: ["4", 1] } },
    "5": { class_type: "EmptySD3LatentImage", inputs: { width, height, batch_size: 1 } },
    "3": {
      class_type: "KSampler",
      inputs: {
        seed,
        steps: 4,
        cfg: 1,
        sampler_name: "euler",
        scheduler: "simple",
        denoise: 1,
        model: ["4", 0],
        positive: ["6", 0],
        negative: ["6", 0],
        latent_image: ["5", 0],
      },
    },
    "8": { class_type: "VAEDecode", inputs: { samples: ["3", 0], vae: ["4", 2] } },
    "9": { class_type: "SaveImage", inputs: { filename_prefix: filenamePrefix, images: ["8", 0] } },
  };
}
