// What the agent's session with the control plane is given (options, timers) and the frame types it
// sends; the session itself is connection.ts.
import type { MessageInitShape } from "@bufbuild/protobuf";
import type {
  EngineBuildReport,
  EngineInstall,
  Envelope,
  EnvelopeInit,
  RegisterSchema,
} from "@llmgw/proto";
import type { SourceConfigReport } from "./cache/source-config";
import type { HostLoad } from "./discovery/host";
import type { NetworkRate } from "./discovery/network";
import type { GpuSampleValues } from "./discovery/nvidia-smi";
import type { Logger } from "./log-ring";
import type { RandomFn } from "./random";
import type { ReplicaStatusInit } from "./replicas/replica-deps";
import type { TlsSessionCache } from "./tls-sessions";

/** A dial whose TLS and WebSocket opening handshake has not finished by then is given up. */
export const DIAL_HANDSHAKE_TIMEOUT_MS = 10_000;

export type RegisterInit = MessageInitShape<typeof RegisterSchema>;

/** What a heartbeat carries apart from its timestamp. */
export interface HeartbeatContent extends HostLoad, NetworkRate {
  gpus: GpuSampleValues[];
  /** Every supervised replica: a level, so a lost ReplicaStatus frame costs nothing. */
  replicas?: ReplicaStatusInit[];
  /** The node's measured memory read rate; absent until measured (memory-read-rate.ts). */
  memoryReadBytesPerSecond?: number;
  /** The engines this agent installs itself, with their phase (EngineInstall). */
  engineInstalls?: EngineInstall[];
  /** The config.json of sources read since the last Register or heartbeat (SourceConfig). */
  sourceConfigs?: SourceConfigReport[];
  /** The GPU engine build the node applies (EngineBuildReport). */
  engineBuild?: EngineBuildReport;
}

export const DEFAULT_HEARTBEAT_INTERVAL_MS = 2000;
/** Close codes a server uses for a refused agent: ours (4401) and the standard policy violation. */
export const AUTH_CLOSE_CODES: readonly number[] = [4401, 1008];

export interface Timers {
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface ConnectionOptions {
  serverUrls: readonly string[];
  /** Builds the Register frame for each new connection (hardware may have changed). */
  register: () => RegisterInit;
  /** Samples what a heartbeat carries; sent_at_ms is filled in here. */
  heartbeat: () => Promise<HeartbeatContent>;
  /**
   * The replicas' level, read at the moment a heartbeat is sent, after its sampling's awaits: a
   * level read before them could be older than a status sent meanwhile, and would set a replica
   * the server already knows as ready back to starting until the next beat.
   */
  replicaLevel?: () => ReplicaStatusInit[];
  logger: Logger;
  random: RandomFn;
  nowMs: () => number;
  timers?: Timers;
  backoff?: { baseMs: number; capMs: number };
  /** Default DIAL_HANDSHAKE_TIMEOUT_MS. */
  handshakeTimeoutMs?: number;
  /** Silence before the agent pings the server (default 5 s). */
  idleMs?: number;
  /** How long the ping may go unanswered before the server counts as dead (default 3 s). */
  pingTimeoutMs?: number;
  /** The list of control planes changed (a RegisterAck named new ones): saved for the next start. */
  onServerUrls?: (urls: readonly string[]) => void;
  /**
   * The node's certificate, key and the cluster CA, read at each connection so a renewed
   * certificate is used from the next one on.
   */
  tls?: () => { ca: string; cert: string; key: string } | null;
  /** Where TLS sessions are kept for resumption (default: one cache for this connection). */
  tlsSessions?: TlsSessionCache;
  /**
   * Serves the control plane's requests (replicas, logs, reclaim). A returned frame is sent back
   * with the request's request_id; a thrown error becomes an Error frame.
   */
  onRequest?: (envelope: Envelope) => Promise<EnvelopeInit | undefined>;
}

/** Frames the control plane sends that the agent serves through onRequest. */
export const REQUEST_CASES: ReadonlySet<string> = new Set([
  "startReplica",
  "stopReplica",
  "desiredReplicas",
  "logsRequest",
  "reclaimRequest",
  "upgradeAgent",
  "engineBuild",
  "doctorRequest",
  "fabricTestRequest",
]);

export type ConnectionState = "idle" | "connecting" | "registered" | "waiting" | "stopped";
