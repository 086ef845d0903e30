// Live fleet state: which nodes have an open agent session, and their latest samples. It lives in
// memory on purpose: heartbeats arrive every 2 s per node and only the inventory needs to survive
// a restart (that is in the store).
import type { GpuSample, Heartbeat, Register } from "@llmgw/proto";
import { FacilityOverlay } from "./facility-overlay";
import { GpuHistory } from "./gpu-history";
import { SourceDescriptions } from "./source-descriptions";
import { NO_STALL_WATCH, type StallWatch } from "./stall-watch";

export interface LiveNode {
  nodeId: string;
  register: Register;
  sessionId: number;
  connectedAtMs: number;
  lastSeenMs: number;
  isConnected: boolean;
  /** When the session closed; null while it is open. */
  disconnectedAtMs: number | null;
  heartbeat: Heartbeat | null;
  /** When the last heartbeat arrived, on the server's clock; null before the first of a session. */
  heartbeatAtMs: number | null;
  samplesByUuid: Map<string, GpuSample>;
  /** The server's stall time excused (StallWatch) when the node was last heard. */
  excusedAtSeenMs: number;
}

/** What liveness reads of a node (`nodeLiveness`): its session, and when it was last heard. */
export interface HeardNode {
  isConnected: boolean;
  lastSeenMs: number;
}

export class FleetRegistry {
  private readonly nodes = new Map<string, LiveNode>();
  /** The last few minutes of card samples per node, for charts and idle detection. */
  readonly history = new GpuHistory();
  /** Labels, cordons and holds operators set; placement reads them with the live state. */
  readonly facility = new FacilityOverlay();
  /** Model descriptions from the config.json agents read in their sources, for sizing. */
  readonly sources = new SourceDescriptions();

  /** `stalls` excuses the server's own stalls from its nodes' silence; none are without one. */
  constructor(private readonly stalls: StallWatch = NO_STALL_WATCH) {}

  connect(register: Register, sessionId: number, nowMs: number): LiveNode {
    const live: LiveNode = {
      nodeId: register.nodeId,
      register,
      sessionId,
      connectedAtMs: nowMs,
      lastSeenMs: nowMs,
      isConnected: true,
      disconnectedAtMs: null,
      heartbeat: null,
      heartbeatAtMs: null,
      samplesByUuid: new Map(),
      excusedAtSeenMs: this.stalls.attend(),
    };
    this.nodes.set(register.nodeId, live);
    return live;
  }

  heartbeat(nodeId: string, sessionId: number, heartbeat: Heartbeat, nowMs: number): boolean {
    const live = this.nodes.get(nodeId);
    if (!live || live.sessionId !== sessionId) return false;
    live.lastSeenMs = nowMs;
    live.excusedAtSeenMs = this.stalls.attend();
    live.heartbeat = heartbeat;
    live.heartbeatAtMs = nowMs;
    for (const sample of heartbeat.gpus) live.samplesByUuid.set(sample.uuid, sample);
    this.history.record(nodeId, nowMs, heartbeat.gpus);
    return true;
  }

  touch(nodeId: string, sessionId: number, nowMs: number): void {
    const live = this.nodes.get(nodeId);
    if (live && live.sessionId === sessionId) {
      live.lastSeenMs = nowMs;
      live.excusedAtSeenMs = this.stalls.attend();
    }
  }

  /** Only the session that owns the entry may close it: a reconnect may already have replaced it. */
  disconnect(nodeId: string, sessionId: number, nowMs: number): void {
    const live = this.nodes.get(nodeId);
    if (live && live.sessionId === sessionId) {
      live.isConnected = false;
      live.disconnectedAtMs = nowMs;
    }
  }

  get(nodeId: string): LiveNode | undefined {
    return this.nodes.get(nodeId);
  }

  all(): LiveNode[] {
    return [...this.nodes.values()];
  }

  /**
   * The node as liveness judges it: last heard at its last frame, moved on by the time the server
   * itself stalled since (frames that arrived meanwhile may still wait unread). The API's "last
   * seen" stays the frame's own time.
   */
  heard(live: LiveNode): HeardNode {
    const excusedMs = this.stalls.attend() - live.excusedAtSeenMs;
    return { isConnected: live.isConnected, lastSeenMs: live.lastSeenMs + excusedMs };
  }
}
