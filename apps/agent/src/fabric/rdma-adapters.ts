// The node's RDMA adapters as sysfs lists them (/sys/class/infiniband/<dev>/ports/1): state, rate,
// link layer, and for RoCE a RoCE v2 GID index the agent names to perftest itself, as NCCL picks one.
// The sysfs root is a parameter so tests read a fake tree.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

export const SYSFS_INFINIBAND = "/sys/class/infiniband";

export interface RdmaAdapter {
  name: string;
  /** "4: ACTIVE" as sysfs writes it. */
  state: string;
  rateGbps: number;
  /** "400 Gb/sec (4X NDR)" as sysfs writes it. */
  rateText: string;
  /** "InfiniBand" or "Ethernet" (RoCE). */
  linkLayer: string;
  /** RoCE: a RoCE v2 GID's index for perftest's -x; -1 when none (InfiniBand needs none). */
  gidIndex: number;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, "utf8")).trim();
  } catch {
    return undefined;
  }
}

/** "400 Gb/sec (4X NDR)" → 400; anything else → 0 (the rail is then graded "unknown"). */
function rateGbpsOf(rateText: string): number {
  const match = /^([\d.]+)\s*Gb\/sec/.exec(rateText);
  return match === null ? 0 : Number(match[1]);
}

const ZERO_GID = /^[0:]*$/;

/**
 * The first RoCE v2 GID holding an IPv4-mapped address (::ffff:a.b.c.d, what NCCL's default
 * address family picks), else the first RoCE v2 GID that is set at all; -1 for none.
 */
async function roceV2GidIndex(portDir: string): Promise<number> {
  const indexes = ((await readdir(join(portDir, "gid_attrs/types")).catch(() => [])) as string[])
    .map(Number)
    .filter(Number.isInteger)
    .sort((a, b) => a - b);
  const v2: { index: number; gid: string }[] = [];
  for (const index of indexes) {
    const type = await readText(join(portDir, "gid_attrs/types", String(index)));
    const gid = (await readText(join(portDir, "gids", String(index)))) ?? "";
    if (type?.toLowerCase() === "roce v2" && !ZERO_GID.test(gid)) v2.push({ index, gid });
  }
  const mapped = v2.find((entry) => entry.gid.startsWith("0000:0000:0000:0000:0000:ffff:"));
  return (mapped ?? v2[0])?.index ?? -1;
}

async function readAdapter(root: string, name: string): Promise<RdmaAdapter> {
  const portDir = join(root, name, "ports/1");
  const rateText = (await readText(join(portDir, "rate"))) ?? "";
  const linkLayer = (await readText(join(portDir, "link_layer"))) ?? "InfiniBand";
  return {
    name,
    state: (await readText(join(portDir, "state"))) ?? "unknown",
    rateGbps: rateGbpsOf(rateText),
    rateText,
    linkLayer,
    gidIndex: linkLayer === "Ethernet" ? await roceV2GidIndex(portDir) : -1,
  };
}

/** Every adapter in name order (mlx5_0, mlx5_1, … mlx5_10: numbers compared as numbers). */
export async function listRdmaAdapters(root: string): Promise<RdmaAdapter[]> {
  const names = await readdir(root).catch(() => [] as string[]);
  names.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  return Promise.all(names.map((name) => readAdapter(root, name)));
}
