// A node's stable id, kept in <data-dir>/node-id so a restarted agent is the same node to the
// control plane (and its replicas are adopted rather than rebuilt).
import { randomUUID } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const NODE_ID_FILE = "node-id";

/** Returns the id in the data dir, creating it (mode 0600) on first start. */
export async function loadOrCreateNodeId(
  dataDir: string,
  newId: () => string = randomUUID,
): Promise<string> {
  const path = join(dataDir, NODE_ID_FILE);
  const existing = await readExisting(path);
  if (existing !== undefined) return existing;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const id = newId();
  try {
    // "wx" fails if another agent on the same data dir wrote it first; its id then wins.
    await writeFile(path, `${id}\n`, { mode: 0o600, flag: "wx" });
    return id;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const raced = await readExisting(path);
    if (raced === undefined) throw new Error(`${path} exists but holds no node id`);
    return raced;
  }
}

async function readExisting(path: string): Promise<string | undefined> {
  try {
    const text = (await readFile(path, "utf8")).trim();
    return text === "" ? undefined : text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
