// Every replica on this node, and the three ways the control plane steers them: StartReplica,
// StopReplica and DesiredReplicas (the full list after each connect: adopt what matches, start what
// is missing, stop the rest). Engines outlive the agent: stopping the agent stops only the
// watching, and the next agent adopts them from replicas.json instead of starting them again.
import { messageOf } from "@llmgw/domain";
import { create } from "@bufbuild/protobuf";
import { StartReplicaSchema, type StartReplica } from "@llmgw/proto";
import { cacheName } from "../cache/layout";
import { Replica } from "./replica";
import { isWorkerShard } from "./shard-launch";
import { isTerminal, type ReplicaDeps, type ReplicaStatusInit } from "./replica-deps";
import { readReplicaRecords, writeReplicaRecords, type ReplicaRecord } from "./state-file";

/** How long a FAILED replica is still reported after it failed. */
const FAILED_KEPT_MS = 10 * 60_000;

export type SupervisorDeps = Omit<ReplicaDeps, "takenPorts" | "onChange" | "onProcessChange"> & {
  /** Sends a ReplicaStatus frame (dropped while disconnected; heartbeats carry the level). */
  onStatus: (status: ReplicaStatusInit) => void;
};

export class ReplicaSupervisor {
  private readonly replicas = new Map<string, Replica>();
  private persisting: Promise<void> = Promise.resolve();
  private readonly replicaDeps: ReplicaDeps;

  constructor(private readonly deps: SupervisorDeps) {
    this.replicaDeps = {
      ...deps,
      takenPorts: () =>
        new Set(
          [...this.replicas.values()]
            .filter((r) => !isTerminal(r.phase))
            .flatMap((r) => [r.port, r.rendezvousPort]),
        ),
      onChange: (replica) => {
        if (this.replicas.get(replica.id) === replica) deps.onStatus(replica.status());
      },
      onProcessChange: () => void this.persist(),
    };
  }

  /**
   * Reads replicas.json and adopts each engine whose process group is still alive. Resolves once
   * each has had its first health check, so Register can report them.
   */
  async recover(): Promise<void> {
    const records = await readReplicaRecords(this.deps.dataDir);
    const adoptions: Promise<void>[] = [];
    for (const record of records) {
      if (
        !this.deps.processes.isAlive(record.pid) ||
        !this.deps.processes.isGroupAlive(record.pgid)
      ) {
        this.deps.logger.info("engine gone", {
          replica: record.replicaId,
          pid: record.pid,
          why: "not running since the last agent; not adopted",
        });
        continue;
      }
      const replica = new Replica(specFromRecord(record), this.replicaDeps);
      this.replicas.set(record.replicaId, replica);
      const firstCheck = new Promise<void>((resolve) => {
        void replica.adopt(record).finally(resolve);
        // Register should not wait out a slow engine's whole start timeout.
        setTimeout(resolve, 2500).unref();
      });
      adoptions.push(firstCheck);
    }
    await Promise.all(adoptions);
    await this.persist();
  }

  /** Starts a replica unless one with this id is already under way or running. */
  start(spec: StartReplica): Replica {
    const existing = this.replicas.get(spec.replicaId);
    if (existing !== undefined && !isTerminal(existing.phase)) {
      if (spec.apiKey !== "") existing.takeSpec(spec);
      this.deps.onStatus(existing.status());
      return existing;
    }
    const replica = new Replica(spec, this.replicaDeps);
    this.replicas.set(spec.replicaId, replica);
    void replica.run();
    return replica;
  }

  async stop(replicaId: string, reason: string): Promise<void> {
    const replica = this.replicas.get(replicaId);
    if (replica === undefined) return;
    await replica.stop(reason);
    // A stopped replica has been reported; forgetting it keeps heartbeats to what is running.
    if (this.replicas.get(replicaId) === replica) this.replicas.delete(replicaId);
    await this.persist();
  }

  /** Adopts what matches, starts what is missing, stops what is not listed. */
  async applyDesired(desired: readonly StartReplica[]): Promise<void> {
    const wanted = new Map(desired.map((spec) => [spec.replicaId, spec]));
    for (const spec of desired) {
      const existing = this.replicas.get(spec.replicaId);
      // A failed replica stays failed: the control plane decides on a new start, under a new id.
      // A worker shard listed before its leader reported where to join is kept, not started.
      if (existing === undefined) {
        if (!isWorkerShard(spec) || spec.leaderAddress !== "") this.start(spec);
      } else if (!isTerminal(existing.phase)) existing.takeSpec(spec);
    }
    const unwanted = [...this.replicas.values()].filter((replica) => !wanted.has(replica.id));
    await Promise.all(
      unwanted.map((replica) => this.stop(replica.id, "not in the control plane's desired list")),
    );
  }

  get(replicaId: string): Replica | undefined {
    return this.replicas.get(replicaId);
  }

  statuses(): ReplicaStatusInit[] {
    this.forgetOldFailures();
    return [...this.replicas.values()].map((replica) => replica.status());
  }

  /**
   * A failed replica stays in heartbeats long enough for the control plane to see it even across a
   * short disconnect, then goes, so a model failing again and again does not grow every heartbeat.
   */
  private forgetOldFailures(): void {
    const cutoffMs = this.deps.nowMs() - FAILED_KEPT_MS;
    for (const [id, replica] of this.replicas) {
      if (isTerminal(replica.phase) && Number(replica.status().changedAtMs ?? 0n) < cutoffMs)
        this.replicas.delete(id);
    }
  }

  /** Cache entries a replica on this node still uses, with why reclaim must leave them. */
  cacheInUse(): Map<string, string> {
    const inUse = new Map<string, string>();
    for (const replica of this.replicas.values()) {
      if (isTerminal(replica.phase)) continue;
      const why = `in use by replica ${replica.id} on this node`;
      inUse.set(cacheName(replica.spec.source), why);
      for (const adapter of replica.spec.adapters) inUse.set(cacheName(adapter.source), why);
    }
    return inUse;
  }

  /** Stops every engine (for `llmgw dev`, whose simulated engines should not outlive it). */
  async stopAll(reason: string): Promise<void> {
    await Promise.all([...this.replicas.keys()].map((id) => this.stop(id, reason)));
  }

  /** Stops watching; the engines keep running for the next agent to adopt. */
  async detach(): Promise<void> {
    for (const replica of this.replicas.values()) replica.detach();
    await this.persisting;
  }

  /** Writes replicas.json; writes are serialised so an older list never lands after a newer one. */
  persist(): Promise<void> {
    this.persisting = this.persisting
      .then(() => writeReplicaRecords(this.deps.dataDir, this.records()))
      .catch((error: unknown) =>
        this.deps.logger.error("replicas.json not written", {
          why: messageOf(error),
          consequence: "engines running now cannot be adopted after an agent restart",
        }),
      );
    return this.persisting;
  }

  private records(): ReplicaRecord[] {
    return [...this.replicas.values()].flatMap((replica) => replica.record() ?? []);
  }
}

function specFromRecord(record: ReplicaRecord): StartReplica {
  return create(StartReplicaSchema, {
    replicaId: record.replicaId,
    model: record.model,
    engine: record.engine,
    source: record.source,
    servedModelName: record.servedModelName,
    gpuIndexes: record.gpuIndexes,
  });
}
