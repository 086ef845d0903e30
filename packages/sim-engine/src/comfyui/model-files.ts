// Where the simulated ComfyUI finds model files, as ComfyUI's folder_paths does: `models/<folder>`
// under its base directory, plus the folders an extra_model_paths.yaml names (each entry's
// `base_path` joined with one path or several, one a line). Legacy names `clip` and `unet` mean
// `text_encoders` and `diffusion_models`, as in ComfyUI.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { parse } from "yaml";

export const MODEL_FOLDERS = [
  "checkpoints",
  "configs",
  "loras",
  "vae",
  "text_encoders",
  "diffusion_models",
  "clip_vision",
  "style_models",
  "embeddings",
  "diffusers",
  "vae_approx",
  "controlnet",
  "gligen",
  "upscale_models",
  "hypernetworks",
  "photomaker",
  "classifiers",
] as const;

const LEGACY_NAMES: Readonly<Record<string, string>> = {
  clip: "text_encoders",
  unet: "diffusion_models",
};
const MODEL_EXTENSIONS = [
  ".ckpt",
  ".pt",
  ".pt2",
  ".bin",
  ".pth",
  ".safetensors",
  ".pkl",
  ".sft",
  ".gguf",
];

export type ModelDirs = Map<string, string[]>;

export function defaultModelDirs(baseDirectory: string | undefined): ModelDirs {
  const dirs: ModelDirs = new Map();
  for (const folder of MODEL_FOLDERS)
    dirs.set(folder, baseDirectory === undefined ? [] : [join(baseDirectory, "models", folder)]);
  return dirs;
}

/** Adds the folders of one extra_model_paths.yaml; a malformed file throws naming the file. */
export function addExtraModelPaths(dirs: ModelDirs, yamlPath: string): void {
  const parsed: unknown = parse(readFileSync(yamlPath, "utf8"));
  if (parsed === null || parsed === undefined) return;
  if (typeof parsed !== "object" || Array.isArray(parsed))
    throw new Error(`${yamlPath}: expected a mapping of names to folder settings`);
  for (const [name, entry] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof entry !== "object" || entry === null)
      throw new Error(`${yamlPath}: "${name}" must be a mapping of folder names to paths`);
    const settings = entry as Record<string, unknown>;
    const base = typeof settings["base_path"] === "string" ? settings["base_path"] : "";
    for (const [key, value] of Object.entries(settings)) {
      if (key === "base_path" || key === "is_default" || typeof value !== "string") continue;
      const folder = LEGACY_NAMES[key] ?? key;
      const paths = value
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "");
      const known = dirs.get(folder) ?? [];
      dirs.set(folder, [
        ...known,
        ...paths.map((path) => (isAbsolute(path) || base === "" ? path : join(base, path))),
      ]);
    }
  }
}

/** Model files of one folder, as paths relative to the folder they were found in, sorted. */
export function listModelFiles(dirs: ModelDirs, folder: string): string[] {
  const found = new Set<string>();
  for (const root of dirs.get(LEGACY_NAMES[folder] ?? folder) ?? [])
    for (const file of walk(root)) {
      if (MODEL_EXTENSIONS.some((extension) => file.toLowerCase().endsWith(extension)))
        found.add(relative(root, file).split(sep).join("/"));
    }
  return [...found].sort();
}

function walk(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(root, name);
    try {
      // statSync follows links: the gate shows fetched weights to ComfyUI through them.
      return statSync(path).isDirectory() ? walk(path) : [path];
    } catch {
      return [];
    }
  });
}
