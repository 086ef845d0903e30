// Reclaim: which cached weights no catalog model wants, and (only when asked to collect) removing
// them. The control plane knows the catalog, the node knows its disk, and a control plane that is
// wrong or tampered with must not be able to talk a node into deleting anything else. So every
// path is checked again here right before it goes: only a directory named by a cache name, directly
// inside the cache directory, carrying the agent's own manifest for that name, with no symlink
// anywhere in it. Anything else was put there by someone else and is refused, not removed.
import { messageOf } from "@llmgw/domain";
import { randomBytes } from "node:crypto";
import { lstat, readdir, realpath, rename, rmdir, unlink } from "node:fs/promises";
import path from "node:path";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { CachedEntrySchema, ReclaimReplySchema } from "@llmgw/proto";
import { CACHE_NAME_PATTERN, cacheName, readManifest } from "./layout";

export type CachedEntryInit = MessageInitShape<typeof CachedEntrySchema>;
export type ReclaimReplyInit = MessageInitShape<typeof ReclaimReplySchema>;

const TOMBSTONE_PREFIX = ".reclaim-";

export interface ReclaimRequestValues {
  wantedSources: readonly string[];
  collect: boolean;
}

/** Lists, and with collect removes, the cache entries no wanted source maps to. `busy`: name → why not. */
export async function reclaimCache(
  cacheDir: string,
  request: ReclaimRequestValues,
  busy: ReadonlyMap<string, string>,
): Promise<ReclaimReplyInit> {
  const entries = await listUnwanted(cacheDir, request.wantedSources, busy);
  if (!request.collect) return { entries, bytesFreed: 0n };
  let bytesFreed = 0n;
  for (const entry of entries) {
    if (entry.refused) continue;
    const outcome = await removeEntry(cacheDir, entry.cacheName ?? "");
    if ("refused" in outcome) {
      entry.refused = outcome.refused;
    } else {
      entry.removed = true;
      bytesFreed += BigInt(outcome.bytesFreed);
    }
  }
  return { entries, bytesFreed };
}

export async function listUnwanted(
  cacheDir: string,
  wantedSources: readonly string[],
  busy: ReadonlyMap<string, string>,
): Promise<CachedEntryInit[]> {
  const wanted = new Set(wantedSources.map(cacheName));
  let names: string[];
  try {
    names = (await readdir(cacheDir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const entries: CachedEntryInit[] = [];
  for (const name of names) {
    if (wanted.has(name)) continue;
    entries.push(await describeEntry(cacheDir, name, busy));
  }
  return entries;
}

async function describeEntry(
  cacheDir: string,
  name: string,
  busy: ReadonlyMap<string, string>,
): Promise<CachedEntryInit> {
  const entry: CachedEntryInit = { cacheName: name, source: "", sizeBytes: 0n };
  const info = await lstat(path.join(cacheDir, name));
  if (info.isSymbolicLink())
    return {
      ...entry,
      refused: "a symbolic link: the agent never makes one, so it did not fetch this",
    };
  if (!info.isDirectory()) return { ...entry, refused: "not a directory the agent made" };
  if (!CACHE_NAME_PATTERN.test(name))
    return { ...entry, refused: "not a cache name: put there by someone else" };
  const manifest = await readManifest(path.join(cacheDir, name));
  if (manifest === undefined)
    return { ...entry, refused: "no manifest of the agent's: not fetched by it" };
  const described = { ...entry, source: manifest.source, sizeBytes: BigInt(manifest.sizeBytes) };
  if (cacheName(manifest.source) !== name)
    return { ...described, refused: "its manifest's source does not hash to this name" };
  const why = busy.get(name);
  return why === undefined ? described : { ...described, refused: why };
}

/** Why a name cannot be an entry of the cache, or undefined when it can. */
function checkEntryName(name: string): string | undefined {
  if (name === "" || name === "." || name === "..") return `"${name}" is not an entry name`;
  if (path.isAbsolute(name) || name.includes("/") || name.includes("\\"))
    return `"${name}" is a path, not an entry name`;
  if (name.split(/[\\/]/).includes("..") || name.includes("..")) return `"${name}" contains ".."`;
  if (!CACHE_NAME_PATTERN.test(name)) return `"${name}" is not a cache name`;
  return undefined;
}

/** Re-checks one entry on disk and removes it; never follows a symlink or leaves the cache. */
export async function removeEntry(
  cacheDir: string,
  name: string,
): Promise<{ bytesFreed: number } | { refused: string }> {
  const badName = checkEntryName(name);
  if (badName !== undefined) return { refused: badName };
  try {
    const root = await realpath(cacheDir);
    const entryPath = path.join(root, name);
    const problem = (await checkInside(root, entryPath)) ?? (await checkManifest(entryPath, name));
    if (problem !== undefined) return { refused: problem };
    // Moving the entry aside first means what is checked and deleted from here on is a name only
    // this agent knows; rename moves a symlink itself, never what it points at.
    const tombstone = path.join(
      root,
      `${TOMBSTONE_PREFIX}${name}-${randomBytes(4).toString("hex")}`,
    );
    await rename(entryPath, tombstone);
    const swapped = (await checkInside(root, tombstone)) ?? (await findSymlink(tombstone));
    if (swapped !== undefined) {
      await rename(tombstone, entryPath);
      return { refused: swapped };
    }
    return { bytesFreed: await removeTree(tombstone) };
  } catch (error) {
    return { refused: `could not check or remove it: ${messageOf(error)}` };
  }
}

/** The path must be a real directory directly inside root, with no symlink on the way. */
async function checkInside(root: string, target: string): Promise<string | undefined> {
  const relative = path.relative(root, target);
  if (
    relative === "" ||
    relative.startsWith("..") ||
    path.isAbsolute(relative) ||
    relative.includes(path.sep)
  ) {
    return "resolves outside the cache directory";
  }
  const info = await lstat(target);
  if (info.isSymbolicLink()) return "a symbolic link: refused, it could point anywhere";
  if (!info.isDirectory()) return "not a directory the agent made";
  if ((await realpath(target)) !== target) return "resolves outside the cache directory";
  return undefined;
}

async function checkManifest(entryPath: string, name: string): Promise<string | undefined> {
  const manifest = await readManifest(entryPath);
  if (manifest === undefined) return "no manifest of the agent's: not fetched by it";
  if (cacheName(manifest.source) !== name)
    return "its manifest's source does not hash to this name";
  return undefined;
}

/** The first symlink inside a tree, described; the agent never creates one, so any is foreign. */
async function findSymlink(dir: string): Promise<string | undefined> {
  for (const child of await readdir(dir)) {
    const childPath = path.join(dir, child);
    const info = await lstat(childPath);
    if (info.isSymbolicLink())
      return `holds a symbolic link (${child}): refused, it could point anywhere`;
    if (info.isDirectory()) {
      const inner = await findSymlink(childPath);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/** Removes a checked tree bottom-up with unlink/rmdir, which never follow a link. */
async function removeTree(dir: string): Promise<number> {
  let bytes = 0;
  for (const child of await readdir(dir)) {
    const childPath = path.join(dir, child);
    const info = await lstat(childPath);
    if (info.isDirectory()) {
      bytes += await removeTree(childPath);
    } else {
      bytes += info.size;
      await unlink(childPath);
    }
  }
  await rmdir(dir);
  return bytes;
}
