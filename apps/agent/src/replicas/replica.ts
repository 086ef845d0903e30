// One replica's life on this node: FETCHING → STARTING → READY, or FAILED, or STOPPED when asked.
// The start timeout counts from the last sign of progress (download bytes, or the start of the
// engine), so a 400 GB download is not cut off by a timeout meant for an engine's warm-up.
import { messageOf } from "@llmgw/domain";
import type { ChildProcess } from "node:child_process";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { redactArgs, redactEnv, type LaunchAdapter } from "@llmgw/engines";
import { ReplicaPhase, type StartReplica } from "@llmgw/proto";
import type { ResolvedWeights } from "../cache/fetch";
import { EngineLogTail } from "./engine-log";
import { engineExitMessage, terminateProcessGroup, withLastLines } from "./engine-stop";
import { healthUrl } from "./health";
import { buildEngineCommand, chooseAdapter, type LaunchPlan } from "./launch-plan";
import { fetchAdapters, fetchWatched } from "./replica-fetch";
import {
  DEFAULT_START_TIMEOUT_MS,
  isTerminal,
  safeDirName,
  standInWeights,
  type ReplicaDeps,
  type ReplicaStatusInit,
} from "./replica-deps";
import { isWorkerShard, readyMessage, shardLaunch, type ShardLaunch } from "./shard-launch";
import { hashKey, type ReplicaRecord } from "./state-file";

const HEALTH_TIMEOUT_MS = 2000;
const PROGRESS_REPORT_MS = 1000;
const EXIT_LINES = 8;

export class Replica {
  phase = ReplicaPhase.UNSPECIFIED;
  message = "";
  pid = 0;
  port = 0;
  /** For the leader shard of a replica spanning nodes: where its workers join it. */
  rendezvousPort = 0;
  leaderAddress = "";
  private shard: ShardLaunch | undefined;
  isAdopted = false;
  keySha256 = "";
  standIn = "";
  logTail: EngineLogTail | undefined;
  private pgid = 0;
  private exitCode: number | undefined;
  private exitSignal = "";
  private fetchProgress: number | undefined;
  private changedAtMs = 0;
  private lastProgressAtMs = 0;
  private lastProgressReportMs = 0;
  private startedAtMs = 0;
  private healthPath = "/health";
  private isStopping = false;
  private isDetached = false;
  private watchTimer: NodeJS.Timeout | undefined;
  private readonly abort = new AbortController();
  private stopDone: Promise<void> | undefined;

  constructor(
    public spec: StartReplica,
    private readonly deps: ReplicaDeps,
  ) {}

  get id(): string {
    return this.spec.replicaId;
  }

  get startTimeoutMs(): number {
    return this.spec.startTimeoutMs > 0 ? this.spec.startTimeoutMs : DEFAULT_START_TIMEOUT_MS;
  }

  /** Fetches, starts and waits for readiness; never throws, a failure becomes the FAILED phase. */
  async run(): Promise<void> {
    try {
      const plan = chooseAdapter(this.spec, this.deps.node);
      this.standIn = plan.standIn;
      // Before the fetch, so a leader reports where to join it at once and its workers fetch
      // their weights while it fetches its own.
      this.shard = await shardLaunch(this.spec, this.deps.advertiseHost, () =>
        this.deps.processes.pickPort(this.deps.node.bindHost, this.deps.takenPorts()),
      );
      this.rendezvousPort = this.shard?.rendezvousPort ?? 0;
      this.leaderAddress = this.shard?.leaderAddress ?? "";
      this.lastProgressAtMs = this.deps.nowMs();
      this.setPhase(ReplicaPhase.FETCHING, this.withStandIn("fetching weights"));
      // A stand-in simulator reads no weights, so a simulated node does not download them.
      const weights =
        plan.standIn === ""
          ? await this.fetchWeights(plan, this.spec.source)
          : standInWeights(this.spec.source);
      const adapters = await fetchAdapters(this.spec, plan, (source) =>
        this.fetchWeights(plan, source),
      );
      if (this.isStopping) return;
      await this.spawnEngine(plan, weights, adapters);
      await this.waitReady();
    } catch (error) {
      if (!this.isStopping && !isTerminal(this.phase)) this.fail(messageOf(error));
    }
  }

  /** The weights (or an adapter) into the node's cache, the download watched for progress. */
  private fetchWeights(plan: LaunchPlan, source: string): Promise<ResolvedWeights> {
    return fetchWatched({
      ...{ deps: this.deps, spec: this.spec, plan, source, abort: this.abort },
      startTimeoutMs: this.startTimeoutMs,
      lastProgressAtMs: () => this.lastProgressAtMs,
      isStopping: () => this.isStopping,
      onProgress: (received, total) => this.onFetchProgress(received, total),
    });
  }

  private onFetchProgress(receivedBytes: number, totalBytes: number | undefined): void {
    const nowMs = this.deps.nowMs();
    this.lastProgressAtMs = nowMs;
    if (totalBytes !== undefined) this.fetchProgress = Math.min(1, receivedBytes / totalBytes);
    const isDone = this.fetchProgress === 1;
    if (isDone || nowMs - this.lastProgressReportMs >= PROGRESS_REPORT_MS) {
      this.lastProgressReportMs = nowMs;
      this.changedAtMs = nowMs;
      this.deps.onChange(this);
    }
  }

  private async spawnEngine(
    plan: LaunchPlan,
    weights: ResolvedWeights,
    adapters: readonly LaunchAdapter[],
  ): Promise<void> {
    this.port = await this.deps.processes.pickPort(this.deps.node.bindHost, this.deps.takenPorts());
    const command = buildEngineCommand(
      plan,
      this.spec,
      weights.modelPath,
      this.port,
      this.deps.node,
      this.shard?.multiNode,
      adapters,
    );
    const logDir = path.join(this.deps.dataDir, "replicas", safeDirName(this.id));
    await mkdir(logDir, { recursive: true, mode: 0o700 });
    this.logTail = new EngineLogTail(path.join(logDir, "engine.log"));
    // A worker shard of a real engine serves no HTTP: "" means it is up while its process runs.
    this.healthPath = isWorkerShard(this.spec)
      ? (plan.adapter.workerHealthPath ?? "")
      : plan.adapter.healthPath;
    this.keySha256 = hashKey(this.spec.apiKey);
    this.deps.logger.info("engine starting", {
      replica: this.id,
      engine: plan.adapter.name,
      command: [command.command, ...redactArgs(command.args, command.secretFlags)].join(" "),
      env: JSON.stringify(redactEnv(command.env, command.secretEnv)),
      weights: weights.note,
    });
    for (const warning of command.warnings)
      this.deps.logger.warn("engine warning", { replica: this.id, why: warning });
    const child = this.deps.processes.spawn({
      command: command.command,
      args: command.args,
      env: { ...this.deps.baseEnv, ...command.env },
      logPath: this.logTail.logPath,
    });
    this.attachChild(child);
    this.startedAtMs = this.deps.nowMs();
    this.lastProgressAtMs = this.startedAtMs;
    this.setPhase(
      ReplicaPhase.STARTING,
      this.withStandIn(`engine started (pid ${this.pid}); ${weights.note}`),
    );
    this.deps.onProcessChange();
    this.startWatching();
    if (this.isStopping) this.deps.processes.signalGroup(this.pgid, "SIGKILL");
  }

  private attachChild(child: ChildProcess): void {
    child.once("error", (error) => {
      if (!isTerminal(this.phase)) this.fail(`could not start the engine: ${error.message}`);
    });
    child.once("exit", (code, signal) => void this.onExit(code ?? undefined, signal ?? ""));
    if (child.pid === undefined) throw new Error("the engine did not start (no pid)");
    this.pid = child.pid;
    this.pgid = child.pid;
  }

  /** Tails the engine's log, and for an adopted engine (not our child) notices its death by polling. */
  private startWatching(): void {
    this.watchTimer = setInterval(() => {
      void this.logTail?.poll();
      if (
        this.isAdopted &&
        !isTerminal(this.phase) &&
        !this.isStopping &&
        !this.deps.processes.isAlive(this.pid)
      ) {
        void this.onExit(undefined, "");
      }
    }, this.deps.healthPollMs);
  }

  private async waitReady(): Promise<void> {
    const url = healthUrl(this.deps.node.bindHost, this.port, this.healthPath);
    while (this.phase === ReplicaPhase.STARTING && !this.isStopping) {
      const status = await this.probe(url);
      if (this.phase !== ReplicaPhase.STARTING || this.isStopping) return;
      if (status === 200) {
        this.setPhase(
          ReplicaPhase.READY,
          this.withStandIn(
            this.isAdopted
              ? `adopted: engine pid ${this.pid} kept running across an agent restart`
              : readyMessage(this.spec),
          ),
        );
        return;
      }
      if (this.deps.nowMs() - this.lastProgressAtMs > this.startTimeoutMs) {
        await this.failAndKill(
          `not ready within ${Math.round(this.startTimeoutMs / 1000)} s (start timeout; last health answer: ${status ?? "none"})`,
        );
        return;
      }
      await this.deps.sleep(this.deps.healthPollMs);
    }
  }

  /** The engine's health answer; a worker with nothing to ask is up once it ran a poll. */
  private async probe(url: string): Promise<number | undefined> {
    if (this.healthPath !== "")
      return this.deps.probeHealth(url, this.spec.apiKey || undefined, HEALTH_TIMEOUT_MS);
    await this.deps.sleep(this.deps.healthPollMs);
    return this.deps.processes.isAlive(this.pid) ? 200 : undefined;
  }

  private async onExit(code: number | undefined, signal: string): Promise<void> {
    if (this.isStopping || this.isDetached || isTerminal(this.phase)) return;
    const wasReady = this.phase === ReplicaPhase.READY;
    await this.logTail?.poll();
    this.exitCode = code;
    this.exitSignal = signal;
    const lines = this.logTail?.lastLines(EXIT_LINES) ?? [];
    this.fail(engineExitMessage(code, signal, wasReady, lines));
    // Workers the engine forked may still hold the card.
    this.deps.processes.signalGroup(this.pgid, "SIGKILL");
  }

  private async failAndKill(message: string): Promise<void> {
    await this.logTail?.poll();
    const lines = this.logTail?.lastLines(EXIT_LINES) ?? [];
    this.fail(withLastLines(message, lines));
    await this.terminateGroup();
  }

  /** SIGTERM to the group, SIGKILL after the grace, then STOPPED. Safe to call more than once. */
  stop(reason: string): Promise<void> {
    this.stopDone ??= this.doStop(reason);
    return this.stopDone;
  }

  private async doStop(reason: string): Promise<void> {
    if (isTerminal(this.phase)) return;
    this.isStopping = true;
    this.abort.abort(new Error("stopped"));
    await this.terminateGroup();
    await this.logTail?.poll();
    this.setPhase(ReplicaPhase.STOPPED, reason === "" ? "stopped" : `stopped: ${reason}`);
    this.deps.onProcessChange();
  }

  private async terminateGroup(): Promise<void> {
    await terminateProcessGroup(this.pgid, this.deps, (why) =>
      this.deps.logger.warn("engine kill", { replica: this.id, why }),
    );
    this.dispose();
  }

  private fail(message: string): void {
    this.setPhase(ReplicaPhase.FAILED, message);
    this.deps.logger.warn("replica failed", { replica: this.id, why: message.split("\n", 1)[0] });
    this.dispose();
    this.deps.onProcessChange();
  }

  private setPhase(phase: ReplicaPhase, message: string): void {
    this.phase = phase;
    this.message = message;
    this.changedAtMs = this.deps.nowMs();
    if (phase !== ReplicaPhase.FETCHING) this.fetchProgress = undefined;
    this.deps.logger.info("replica phase", {
      replica: this.id,
      phase: ReplicaPhase[phase],
      pid: this.pid || undefined,
      port: this.port || undefined,
    });
    this.deps.onChange(this);
  }

  private withStandIn(message: string): string {
    return this.standIn === "" ? message : `${message} (${this.standIn})`;
  }

  /** The agent is stopping, not the replica: stop watching and leave the engine running. */
  detach(): void {
    this.isDetached = true;
    this.dispose();
  }

  private dispose(): void {
    clearInterval(this.watchTimer);
    this.watchTimer = undefined;
  }

  status(): ReplicaStatusInit {
    return {
      replicaId: this.id,
      model: this.spec.model,
      phase: this.phase,
      message: this.message,
      host: this.port > 0 ? this.deps.advertiseHost : "",
      port: this.port,
      ...(this.fetchProgress !== undefined ? { fetchProgress: this.fetchProgress } : {}),
      ...(this.exitCode !== undefined ? { exitCode: this.exitCode } : {}),
      exitSignal: this.exitSignal,
      changedAtMs: BigInt(this.changedAtMs),
      engine: this.spec.engine,
      gpuIndexes: [...this.spec.gpuIndexes],
      pid: this.pid,
      leaderAddress: this.leaderAddress,
    };
  }

  /** What replicas.json keeps, or undefined when no engine process is running. */
  record(): ReplicaRecord | undefined {
    if (this.pid <= 1 || isTerminal(this.phase) || this.logTail === undefined) return undefined;
    return {
      replicaId: this.id,
      model: this.spec.model,
      engine: this.spec.engine,
      servedModelName: this.spec.servedModelName,
      source: this.spec.source,
      pid: this.pid,
      pgid: this.pgid,
      host: this.deps.node.bindHost,
      port: this.port,
      healthPath: this.healthPath,
      keySha256: this.keySha256,
      startedAtMs: this.startedAtMs,
      gpuIndexes: [...this.spec.gpuIndexes],
      logPath: this.logTail.logPath,
      standIn: this.standIn,
      leaderAddress: this.leaderAddress,
      rendezvousPort: this.rendezvousPort,
    };
  }

  /** Takes over an engine a previous agent started: no spawn, only watching and a readiness check. */
  async adopt(record: ReplicaRecord): Promise<void> {
    this.isAdopted = true;
    this.pid = record.pid;
    this.pgid = record.pgid;
    this.port = record.port;
    this.healthPath = record.healthPath;
    this.keySha256 = record.keySha256;
    this.standIn = record.standIn;
    this.startedAtMs = record.startedAtMs;
    this.leaderAddress = record.leaderAddress ?? "";
    this.rendezvousPort = record.rendezvousPort ?? 0;
    this.logTail = new EngineLogTail(record.logPath);
    await this.logTail.skipToTail();
    await this.logTail.poll();
    this.lastProgressAtMs = this.deps.nowMs();
    this.setPhase(
      ReplicaPhase.STARTING,
      this.withStandIn(`adopting engine pid ${this.pid} left running by a previous agent`),
    );
    this.startWatching();
    await this.waitReady();
  }

  /** The control plane's spec for an adopted replica, with its key; the engine is never restarted. */
  takeSpec(spec: StartReplica): void {
    if (this.keySha256 !== "" && hashKey(spec.apiKey) !== this.keySha256) {
      this.deps.logger.warn("adopted key differs", {
        replica: this.id,
        why: "the engine holds another key than the control plane sent; restart the replica to give it the new one",
      });
    }
    this.spec = spec;
  }
}
