// Where an external model's key files may come from: only inside the one directory the
// administrator names (LLMGW_KEY_FILE_DIR); none by default, so key files are off until it is set.
// A path outside it, one with "..", or one whose symbolic links lead out is refused when the
// model is added and again on every read, so an operator cannot make the server send its master
// key, its join token or /etc/shadow upstream as a bearer token. A path outside the directory is
// refused without touching the file system, in words that never depend on whether it exists.
import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import { isAbsolute, relative, sep } from "node:path";

const KEY_FILE_DIR_SETTING = "LLMGW_KEY_FILE_DIR";

const SEALED_INSTEAD =
  "or keep the key sealed in the store: llmgw ctl model key set MODEL --key-file F";

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

/** Why a key file path is refused by its text alone, or null. Never looks at the file. */
function keyFilePathRefusal(path: string, dir: string | null): string | null {
  if (dir === null)
    return `key files are off on this server: the administrator names the one directory they may come from in ${KEY_FILE_DIR_SETTING}, ${SEALED_INSTEAD}`;
  const isPlain =
    isAbsolute(path) && !path.split("/").some((part) => part === ".." || part === ".");
  if (!isPlain || !isInside(dir, path))
    return `"${path}" is not a file inside the key file directory ${dir} (${KEY_FILE_DIR_SETTING}); put the key file there and name it by its absolute path, ${SEALED_INSTEAD}`;
  return null;
}

/** The file's real path when it exists and its links stay inside the directory. */
async function resolveInside(path: string, dir: string): Promise<"missing" | "outside" | string> {
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return "missing";
  }
  const realDir = await realpath(dir).catch(() => dir);
  return isInside(realDir, real) ? real : "outside";
}

const leadsOut = (path: string, dir: string) =>
  `"${path}" leads out of the key file directory ${dir} (${KEY_FILE_DIR_SETTING}) through a symbolic link; put the key file itself there, ${SEALED_INSTEAD}`;

/**
 * Every refusal for a key file at add time, or null when it may be stored. Inside the directory,
 * a symbolic link (the file or a folder above it) that leads out is refused too; a file that does
 * not exist yet is not: it is read on use.
 */
export async function keyFileRefusal(path: string, dir: string | null): Promise<string | null> {
  const byText = keyFilePathRefusal(path, dir);
  if (byText !== null || dir === null) return byText;
  return (await resolveInside(path, dir)) === "outside" ? leadsOut(path, dir) : null;
}

export type KeyRead = { ok: true; key: string } | { ok: false; why: string };

/**
 * The key in the file, read now. The path is judged again first (the directory may have changed,
 * or the model was stored before the rule), and the resolved path is opened without following a
 * final link, so what is read is what was judged.
 */
export async function readKeyFile(path: string, dir: string | null): Promise<KeyRead> {
  const refusal = keyFilePathRefusal(path, dir);
  if (refusal !== null || dir === null) return { ok: false, why: refusal ?? "" };
  const real = await resolveInside(path, dir);
  if (real === "outside") return { ok: false, why: leadsOut(path, dir) };
  const unreadable = { ok: false as const, why: `its key file ${path} cannot be read` };
  if (real === "missing") return unreadable;
  try {
    const file = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const key = (await file.readFile("utf8")).trim();
      return key === "" ? { ok: false, why: `its key file ${path} is empty` } : { ok: true, key };
    } finally {
      await file.close();
    }
  } catch {
    return unreadable;
  }
}
