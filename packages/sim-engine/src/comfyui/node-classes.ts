// The node classes the simulated ComfyUI knows, described the way ComfyUI's /object_info describes
// them: each input is `[TYPE, options]` or `[choices]`, and loaders choose among the model files
// found in one folder, so a workflow naming a missing checkpoint fails as it would on ComfyUI.

/** An input whose choices are the files of a model folder, filled in at request time. */
export interface FilesInput {
  files: string;
}
export type InputSpec =
  readonly [string, Record<string, unknown>?] | readonly [readonly string[]] | FilesInput;

export interface NodeClass {
  required: Record<string, InputSpec>;
  optional?: Record<string, InputSpec>;
  output: readonly string[];
  outputName?: readonly string[];
  category: string;
  isOutputNode?: boolean;
}

const SAMPLERS = ["euler", "euler_ancestral", "heun", "dpmpp_2m", "dpmpp_2m_sde", "ddim", "uni_pc"];
const SCHEDULERS = [
  "normal",
  "karras",
  "exponential",
  "sgm_uniform",
  "simple",
  "ddim_uniform",
  "beta",
];
// ComfyUI allows seeds up to 2^64 - 1; JSON numbers in JavaScript stay exact only this far.
const SEED: InputSpec = ["INT", { default: 0, min: 0, max: Number.MAX_SAFE_INTEGER }];
const STEPS: InputSpec = ["INT", { default: 20, min: 1, max: 10000 }];
const CFG: InputSpec = ["FLOAT", { default: 8, min: 0, max: 100, step: 0.1 }];
const SIDE: InputSpec = ["INT", { default: 1024, min: 16, max: 16384, step: 8 }];
const BATCH: InputSpec = ["INT", { default: 1, min: 1, max: 4096 }];
const DENOISE: InputSpec = ["FLOAT", { default: 1, min: 0, max: 1, step: 0.01 }];
const LATENT_SIZE = { width: SIDE, height: SIDE, batch_size: BATCH };
const CLIP_TYPES = ["sdxl", "sd3", "flux", "hunyuan_video", "hidream"];
const SAVE_INPUTS = {
  images: ["IMAGE"],
  filename_prefix: ["STRING", { default: "ComfyUI" }],
} as const;

export const NODE_CLASSES: Readonly<Record<string, NodeClass>> = {
  CheckpointLoaderSimple: {
    required: { ckpt_name: { files: "checkpoints" } },
    output: ["MODEL", "CLIP", "VAE"],
    category: "loaders",
  },
  UNETLoader: {
    required: {
      unet_name: { files: "diffusion_models" },
      weight_dtype: [["default", "fp8_e4m3fn", "fp8_e4m3fn_fast", "fp8_e5m2"]],
    },
    output: ["MODEL"],
    category: "advanced/loaders",
  },
  DualCLIPLoader: {
    required: {
      clip_name1: { files: "text_encoders" },
      clip_name2: { files: "text_encoders" },
      type: [CLIP_TYPES],
    },
    output: ["CLIP"],
    category: "advanced/loaders",
  },
  CLIPLoader: {
    required: { clip_name: { files: "text_encoders" }, type: [CLIP_TYPES] },
    output: ["CLIP"],
    category: "advanced/loaders",
  },
  VAELoader: { required: { vae_name: { files: "vae" } }, output: ["VAE"], category: "loaders" },
  LoraLoader: {
    required: {
      model: ["MODEL"],
      clip: ["CLIP"],
      lora_name: { files: "loras" },
      strength_model: ["FLOAT", { default: 1, min: -100, max: 100 }],
      strength_clip: ["FLOAT", { default: 1, min: -100, max: 100 }],
    },
    output: ["MODEL", "CLIP"],
    category: "loaders",
  },
  CLIPTextEncode: {
    required: { text: ["STRING", { multiline: true }], clip: ["CLIP"] },
    output: ["CONDITIONING"],
    category: "conditioning",
  },
  ConditioningZeroOut: {
    required: { conditioning: ["CONDITIONING"] },
    output: ["CONDITIONING"],
    category: "advanced/conditioning",
  },
  FluxGuidance: {
    required: {
      conditioning: ["CONDITIONING"],
      guidance: ["FLOAT", { default: 3.5, min: 0, max: 100 }],
    },
    output: ["CONDITIONING"],
    category: "advanced/conditioning/flux",
  },
  EmptyLatentImage: { required: LATENT_SIZE, output: ["LATENT"], category: "latent" },
  EmptySD3LatentImage: { required: LATENT_SIZE, output: ["LATENT"], category: "latent/sd3" },
  KSampler: {
    required: {
      model: ["MODEL"],
      seed: SEED,
      steps: STEPS,
      cfg: CFG,
      sampler_name: [SAMPLERS],
      scheduler: [SCHEDULERS],
      positive: ["CONDITIONING"],
      negative: ["CONDITIONING"],
      latent_image: ["LATENT"],
      denoise: DENOISE,
    },
    output: ["LATENT"],
    category: "sampling",
  },
  KSamplerAdvanced: {
    required: {
      model: ["MODEL"],
      add_noise: [["enable", "disable"]],
      noise_seed: SEED,
      steps: STEPS,
      cfg: CFG,
      sampler_name: [SAMPLERS],
      scheduler: [SCHEDULERS],
      positive: ["CONDITIONING"],
      negative: ["CONDITIONING"],
      latent_image: ["LATENT"],
      start_at_step: ["INT", { default: 0, min: 0, max: 10000 }],
      end_at_step: ["INT", { default: 10000, min: 0, max: 10000 }],
      return_with_leftover_noise: [["disable", "enable"]],
    },
    output: ["LATENT"],
    category: "sampling",
  },
  RandomNoise: {
    required: { noise_seed: SEED },
    output: ["NOISE"],
    category: "sampling/custom_sampling/noise",
  },
  KSamplerSelect: {
    required: { sampler_name: [SAMPLERS] },
    output: ["SAMPLER"],
    category: "sampling/custom_sampling/samplers",
  },
  BasicScheduler: {
    required: { model: ["MODEL"], scheduler: [SCHEDULERS], steps: STEPS, denoise: DENOISE },
    output: ["SIGMAS"],
    category: "sampling/custom_sampling/schedulers",
  },
  BasicGuider: {
    required: { model: ["MODEL"], conditioning: ["CONDITIONING"] },
    output: ["GUIDER"],
    category: "sampling/custom_sampling/guiders",
  },
  SamplerCustomAdvanced: {
    required: {
      noise: ["NOISE"],
      guider: ["GUIDER"],
      sampler: ["SAMPLER"],
      sigmas: ["SIGMAS"],
      latent_image: ["LATENT"],
    },
    output: ["LATENT", "LATENT"],
    outputName: ["output", "denoised_output"],
    category: "sampling/custom_sampling",
  },
  VAEDecode: {
    required: { samples: ["LATENT"], vae: ["VAE"] },
    output: ["IMAGE"],
    category: "latent",
  },
  SaveImage: { required: SAVE_INPUTS, output: [], category: "image", isOutputNode: true },
  PreviewImage: {
    required: { images: ["IMAGE"] },
    output: [],
    category: "image",
    isOutputNode: true,
  },
};

/** Input values the simulator reads to pace a prompt and draw its picture. */
export const SAMPLER_STEPS_INPUT: Readonly<Record<string, string>> = {
  KSampler: "steps",
  KSamplerAdvanced: "steps",
  BasicScheduler: "steps",
};
export const SEED_INPUT: Readonly<Record<string, string>> = {
  KSampler: "seed",
  KSamplerAdvanced: "noise_seed",
  RandomNoise: "noise_seed",
};
export const LATENT_CLASSES: ReadonlySet<string> = new Set([
  "EmptyLatentImage",
  "EmptySD3LatentImage",
]);

export function isFilesInput(spec: InputSpec): spec is FilesInput {
  return !Array.isArray(spec);
}

/** ComfyUI's /object_info entry for one class, with loaders' choices listed from `listFiles`. */
export function describeClass(
  name: string,
  node: NodeClass,
  listFiles: (folder: string) => string[],
): Record<string, unknown> {
  const expand = (inputs: Record<string, InputSpec>): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(inputs).map(([key, spec]) => [
        key,
        isFilesInput(spec) ? [listFiles(spec.files)] : spec,
      ]),
    );
  return {
    input: { required: expand(node.required), optional: expand(node.optional ?? {}) },
    input_order: {
      required: Object.keys(node.required),
      optional: Object.keys(node.optional ?? {}),
    },
    output: node.output,
    output_is_list: node.output.map(() => false),
    output_name: node.outputName ?? node.output,
    name,
    display_name: name,
    description: "",
    python_module: "nodes",
    category: node.category,
    output_node: node.isOutputNode === true,
  };
}
