import { mkdir, readFile, realpath, rename, rm, stat } from "node:fs/promises";
import { join, posix } from "node:path";
import { list, extract, type ReadEntry } from "tar";
import { ReleaseError } from "./errors";

const ALLOWED_TYPES = new Set([
  "File",
  "OldFile",
  "ContiguousFile",
  "Directory",
  "SymbolicLink",
  "Link",
]);
const VERSION_FILE_MAX_BYTES = 256;

/** Why one tar entry may not be unpacked (it would leave `llmgw-V/`), or null when it may. */
function entryProblem(entry: ReadEntry, top: string): string | null {
  const path = entry.path;
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return `"${path}" is an absolute path`;
  if (path.split("/").includes("..")) return `"${path}" climbs out with ".."`;
  if (path !== `${top}/` && path !== top && !path.startsWith(`${top}/`)) {
    return `"${path}" is outside the folder ${top}/`;
  }
  if (!ALLOWED_TYPES.has(entry.type)) return `"${path}" is a ${entry.type}, not a file or folder`;
  if (entry.type === "SymbolicLink" || entry.type === "Link") {
    const target = entry.linkpath ?? "";
    // A symbolic link resolves from its own folder, a hard link from the archive's root.
    const resolved =
      entry.type === "SymbolicLink"
        ? posix.join(posix.dirname(path), target)
        : posix.normalize(target);
    if (target.startsWith("/") || (resolved !== top && !resolved.startsWith(`${top}/`))) {
      return `"${path}" links to "${target}", outside ${top}/`;
    }
  }
  return null;
}

/**
 * Reads a release tarball without writing anything: every entry must stay inside `llmgw-V/`
 * (no absolute path, no "..", no link pointing out, no device) and `llmgw-V/VERSION` must say V.
 * The upload check and the unpack both use it, so a hostile archive is refused before extraction.
 */
export async function inspectRelease(tarball: string, version: string): Promise<void> {
  const top = `llmgw-${version}`;
  const problems: string[] = [];
  const versionChunks: Buffer[] = [];
  let versionFileBytes = 0;
  let sawVersionFile = false;
  try {
    await list({
      file: tarball,
      strict: true,
      onReadEntry: (entry) => {
        const problem = entryProblem(entry, top);
        if (problem) problems.push(problem);
        if (entry.path === `${top}/VERSION` && entry.type === "File") {
          sawVersionFile = true;
          entry.on("data", (chunk: Buffer) => {
            versionFileBytes += chunk.length;
            if (versionFileBytes <= VERSION_FILE_MAX_BYTES) versionChunks.push(chunk);
          });
        }
      },
    });
  } catch (error) {
    throw new ReleaseError(
      "bad-tarball",
      `the file is not a readable .tar.gz (${tarMessage(error)})`,
    );
  }
  if (problems.length > 0) {
    throw new ReleaseError(
      "bad-tarball",
      `the release may only hold ${top}/: ${problems.slice(0, 3).join("; ")}`,
    );
  }
  if (!sawVersionFile) throw new ReleaseError("bad-tarball", `the release has no ${top}/VERSION`);
  const found = Buffer.concat(versionChunks).toString("utf8").trim();
  if (found !== version) {
    throw new ReleaseError(
      "version-mismatch",
      `${top}/VERSION says "${found.slice(0, 40)}", not "${version}"`,
    );
  }
}

function tarMessage(error: unknown): string {
  return error instanceof Error ? (error.message.split("\n")[0] ?? "unreadable") : "unreadable";
}

/**
 * Unpacks a checked release beside the others: into `<root>/.llmgw-V.partial` first, renamed to
 * `<root>/llmgw-V` only once complete, so a crash mid-way never leaves a half release under the
 * real name. A leftover `llmgw-V` from an earlier run is replaced, unless `current` points at it.
 */
export async function unpackRelease(
  tarball: string,
  root: string,
  version: string,
): Promise<string> {
  await inspectRelease(tarball, version);
  const top = `llmgw-${version}`;
  const partial = join(root, `.${top}.partial`);
  const target = join(root, top);
  await refuseReplacingCurrent(root, target);
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    await extract({ file: tarball, cwd: partial, strict: true, preservePaths: false });
    const written = (await readFile(join(partial, top, "VERSION"), "utf8")).trim();
    if (written !== version) {
      throw new ReleaseError(
        "version-mismatch",
        `${top}/VERSION says "${written}", not "${version}"`,
      );
    }
    await rm(target, { recursive: true, force: true });
    await rename(join(partial, top), target);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  return target;
}

async function refuseReplacingCurrent(root: string, target: string): Promise<void> {
  const exists = await stat(target).then(
    () => true,
    () => false,
  );
  if (!exists) return;
  const current = await realpath(join(root, "current")).catch(() => null);
  if (current !== null && current === (await realpath(target))) {
    throw new ReleaseError(
      "bad-tarball",
      `${target} is the current release; it is not unpacked again`,
    );
  }
}
