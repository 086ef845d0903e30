// Hub ids on the mirrors (docs/mirrors.md): a mirror that holds Hugging Face repositories serves
// them in the layout huggingface_hub reads through HF_ENDPOINT — the repository's file list at
// `api/models/ORG/NAME/revision/REVISION` and each file at `ORG/NAME/resolve/REVISION/FILE`. A
// plain file server holds the list as a static JSON file at that path. The node and the server
// read the list with the same rules here.
import { sourceKind } from "./source";

/** The revision fetched: hub sources name none, so the repository's default branch. */
export const HUB_REVISION = "main";
/** A repository's list is a few kilobytes; more is not a file list. */
export const HUB_LIST_MAX_BYTES = 4 * 1024 * 1024;

export interface HubFile {
  /** Relative to the repository: `model.safetensors`, `tokenizer/vocab.json`. */
  path: string;
  sizeBytes: number | undefined;
  /** Lower-case hex, from the list's `lfs.sha256`; absent for files the list gives none for. */
  sha256: string | undefined;
}

/** `hf:org/name` or `org/name` → `org/name`; undefined for any other source. */
export function hubRepoOf(source: string): string | undefined {
  return sourceKind(source) === "hub" ? source.replace(/^hf:/, "") : undefined;
}

/** The repository's file list on a mirror, relative to the mirror's base URL. */
export function hubListPath(repo: string): string {
  return `api/models/${repo}/revision/${HUB_REVISION}`;
}

/** One file of the repository on a mirror, relative to the mirror's base URL. */
export function hubFilePath(repo: string, file: string): string {
  return `${repo}/resolve/${HUB_REVISION}/${file}`;
}

/** Whether a mirror path lies inside a repository's layout (its list or one of its files). */
export function isInHubRepo(path: string, repo: string): boolean {
  return path === hubListPath(repo) || path.startsWith(`${repo}/resolve/`);
}

const FILE_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._+-]{0,254}$/;

/** A listed file path a node may write below its cache entry: no `..`, no dot files, no `/` lead. */
function isSafeFilePath(path: string): boolean {
  const segments = path.split("/");
  return (
    path.length <= 1024 &&
    segments.every((segment) => FILE_SEGMENT.test(segment) && !segment.includes(".."))
  );
}

function fileOf(sibling: unknown): HubFile | string {
  const entry = (typeof sibling === "object" && sibling !== null ? sibling : {}) as Record<
    string,
    unknown
  >;
  const path = entry.rfilename;
  if (typeof path !== "string") return "an entry of siblings has no rfilename";
  if (!isSafeFilePath(path))
    return `it lists "${path.slice(0, 80)}", which is not a safe file path`;
  const lfs = (typeof entry.lfs === "object" && entry.lfs !== null ? entry.lfs : {}) as Record<
    string,
    unknown
  >;
  const sha256 = typeof lfs.sha256 === "string" ? lfs.sha256.toLowerCase() : undefined;
  if (sha256 !== undefined && !/^[0-9a-f]{64}$/.test(sha256))
    return `its lfs.sha256 for ${path} is not a sha256`;
  const size = typeof lfs.size === "number" ? lfs.size : entry.size;
  return {
    path,
    sizeBytes:
      typeof size === "number" && Number.isSafeInteger(size) && size >= 0 ? size : undefined,
    sha256,
  };
}

/**
 * The files a repository's list names (`siblings[].rfilename`, with `lfs.sha256` and the size
 * where given; dot files such as `.gitattributes` are left out), or why the list is not one.
 */
export function parseHubFileList(text: string): { files: HubFile[] } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: "it is not JSON" };
  }
  const siblings = (parsed as { siblings?: unknown } | null)?.siblings;
  if (!Array.isArray(siblings)) return { error: "it has no siblings list" };
  const files: HubFile[] = [];
  for (const sibling of siblings) {
    const name = (sibling as { rfilename?: unknown } | null)?.rfilename;
    const parts = typeof name === "string" ? name.split("/") : [];
    // Dot files (.gitattributes) are the repository's, not the model's; "." and ".." are refused.
    if (parts.some((part) => /^\.[^.]/.test(part)) && !parts.some((p) => p === "." || p === ".."))
      continue;
    const file = fileOf(sibling);
    if (typeof file === "string") return { error: file };
    files.push(file);
  }
  if (files.length === 0) return { error: "it lists no files" };
  return { files };
}

interface ModelSources {
  name: string;
  source?: string | undefined;
  adapters?: readonly { name: string; source: string }[];
}

/** Each hub repository the catalog loads, keyed `hf:ORG/NAME`, with the models that load it. */
export function hubReposInCatalog(models: Iterable<ModelSources>): Map<string, string[]> {
  const users = new Map<string, string[]>();
  const add = (source: string | undefined, user: string): void => {
    const repo = source === undefined ? undefined : hubRepoOf(source);
    if (repo !== undefined) users.set(`hf:${repo}`, [...(users.get(`hf:${repo}`) ?? []), user]);
  };
  for (const model of models) {
    add(model.source, model.name);
    for (const adapter of model.adapters ?? [])
      add(adapter.source, `${model.name}:${adapter.name}`);
  }
  return users;
}
