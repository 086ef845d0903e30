// The weight cache's on-disk shape: one directory per source under <data-dir>/cache, named by the
// first 16 hex digits of sha256(source), holding the fetched file and a manifest. The name is what
// lets reclaim compute exactly which entries a catalog still wants, and the manifest is what proves
// an entry was fetched by the agent rather than copied in by an operator.
import { createHash, randomBytes } from "node:crypto";
import { lstat, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";

export const MANIFEST_FILE = "manifest.json";
export const CACHE_NAME_PATTERN = /^[0-9a-f]{16}$/;
/** Downloads in progress; never a cache name, so reclaim never mistakes one for an entry. */
export const PARTIAL_PREFIX = ".partial-";

export interface CacheManifest {
  source: string;
  /** The fetched file, relative to the entry directory. */
  file: string;
  sizeBytes: number;
  /** The file's sha256 (hex) as fetched; absent in entries fetched before it was kept. */
  sha256?: string;
  /** Only entries with this set may ever be deleted by reclaim. */
  fetchedByAgent: true;
  fetchedAtMs: number;
}

export function cacheName(source: string): string {
  return createHash("sha256").update(source).digest("hex").slice(0, 16);
}

export function cacheDirOf(dataDir: string): string {
  return path.join(dataDir, "cache");
}

/** Reads an entry's manifest without following a symlink; undefined when absent or not ours. */
export async function readManifest(entryDir: string): Promise<CacheManifest | undefined> {
  const file = path.join(entryDir, MANIFEST_FILE);
  try {
    const info = await lstat(file);
    if (!info.isFile()) return undefined;
    const parsed = JSON.parse(await readFile(file, "utf8")) as Partial<CacheManifest>;
    if (
      typeof parsed.source !== "string" ||
      typeof parsed.file !== "string" ||
      parsed.fetchedByAgent !== true
    )
      return undefined;
    return {
      source: parsed.source,
      file: parsed.file,
      sizeBytes: Number(parsed.sizeBytes ?? 0),
      ...(typeof parsed.sha256 === "string" ? { sha256: parsed.sha256 } : {}),
      fetchedByAgent: true,
      fetchedAtMs: Number(parsed.fetchedAtMs ?? 0),
    };
  } catch {
    return undefined;
  }
}

/** Writes beside the target and renames, so a reader never sees half a file. */
export async function writeFileAtomic(file: string, content: string, mode = 0o600): Promise<void> {
  const temporary = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(temporary, content, { mode });
  await rename(temporary, file);
}

/** A file name made safe for an entry: never a dot file, a path or the manifest. */
export function safeFileName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "");
  return safe === "" || safe === MANIFEST_FILE ? "weights" : safe;
}
