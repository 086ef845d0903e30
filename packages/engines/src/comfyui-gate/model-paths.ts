// Shows ComfyUI the replica's fetched weights under their own names: an extra_model_paths.yaml in
// the replica's base directory maps each ComfyUI folder to the weights' directory. A single file
// is linked into a folder of its own first, since ComfyUI's extra paths name directories.
import { mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { stringify } from "yaml";

const LINKS_DIR = "llmgw-model-links";
const EXTRA_PATHS_FILE = "llmgw-extra-model-paths.yaml";

/** Writes the yaml and returns its path; a missing weights path throws naming it. */
export function writeExtraModelPaths(
  baseDirectory: string,
  modelDirs: readonly { folder: string; path: string }[],
): string {
  mkdirSync(baseDirectory, { recursive: true });
  const folders = new Map<string, string[]>();
  for (const { folder, path } of modelDirs) {
    const absolute = resolve(path);
    let directory = absolute;
    if (!statSync(absolute).isDirectory()) {
      directory = join(resolve(baseDirectory), LINKS_DIR, folder);
      mkdirSync(directory, { recursive: true });
      // A link left by an earlier start of this replica may point at older weights.
      const link = join(directory, basename(absolute));
      rmSync(link, { force: true });
      symlinkSync(absolute, link);
    }
    folders.set(folder, [...(folders.get(folder) ?? []), directory]);
  }
  const entry = Object.fromEntries(
    [...folders].map(([folder, paths]) => [folder, `${paths.join("\n")}\n`]),
  );
  const file = join(baseDirectory, EXTRA_PATHS_FILE);
  writeFileSync(file, stringify({ llmgw: entry }));
  return file;
}
