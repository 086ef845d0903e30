// <data-dir>/replicas.json: the engines this agent started and left running, so that an agent
// started again (after a crash, an upgrade or a kill -9) can adopt them instead of starting them a
// second time. It holds a hash of each replica's key, never the key: the key comes back from the
// control plane in DesiredReplicas, and the hash says whether it is the one the engine was given.
import { createHash } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../cache/layout";

const STATE_FILE = "replicas.json";

export interface ReplicaRecord {
  replicaId: string;
  model: string;
  engine: string;
  servedModelName: string;
  source: string;
  pid: number;
  pgid: number;
  host: string;
  port: number;
  healthPath: string;
  /** sha256 of the key in hex, or "" when the engine has none. */
  keySha256: string;
  startedAtMs: number;
  gpuIndexes: number[];
  logPath: string;
  /** Why the simulator runs in place of the asked engine, or "". */
  standIn: string;
  /** A leader shard's address for its workers, reported again after adoption. */
  leaderAddress?: string;
  rendezvousPort?: number;
}

export function hashKey(key: string): string {
  return key === "" ? "" : createHash("sha256").update(key).digest("hex");
}

export async function readReplicaRecords(dataDir: string): Promise<ReplicaRecord[]> {
  let text: string;
  try {
    text = await readFile(path.join(dataDir, STATE_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as { replicas?: unknown };
    return Array.isArray(parsed.replicas) ? parsed.replicas.filter(isRecord) : [];
  } catch {
    // A damaged file only costs adoption: the engines are stopped by the server's desired list.
    return [];
  }
}

export async function writeReplicaRecords(
  dataDir: string,
  records: readonly ReplicaRecord[],
): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(
    path.join(dataDir, STATE_FILE),
    JSON.stringify({ replicas: records }, null, 2) + "\n",
    0o600,
  );
}

function isRecord(value: unknown): value is ReplicaRecord {
  const record = value as Partial<ReplicaRecord> | null;
  return (
    typeof record === "object" &&
    record !== null &&
    typeof record.replicaId === "string" &&
    record.replicaId !== "" &&
    Number.isInteger(record.pid) &&
    (record.pid ?? 0) > 1 &&
    Number.isInteger(record.pgid) &&
    (record.pgid ?? 0) > 1 &&
    Number.isInteger(record.port) &&
    typeof record.host === "string" &&
    typeof record.healthPath === "string" &&
    typeof record.logPath === "string"
  );
}
