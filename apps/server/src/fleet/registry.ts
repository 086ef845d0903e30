// Live fleet state: which nodes have an open agent session, and their latest samples. It lives in
// memory on purpose: heartbeats arrive every 2 s per node and only the inventory needs to survive
// a restart (that is in the store). A heartbeat's figures are copied into records kept per node
// and card (beat-values.ts), never the decoded message, so that each message dies young. The
// Register a node's session keeps holds its values repeated across the fleet (model names, bus
// ids, versions) once each (shared-strings.ts).
import type { Heartbeat, Register } from "@llmgw/proto";
import { SharedStrings } from "../shared-strings";
import { CardValues, NodeBeat } from "./beat-values";
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
  /** The last heartbeat's figures, overwritten in place by each one; null before the first. */
  heartbeat: NodeBeat | null;
  /** Heartbeats this session has had: what tells a reader that the figures may have changed. */
  heartbeats: number;
  /** When the last heartbeat arrived, on the server's clock; null before the first of a session. */
  heartbeatAtMs: number | null;
  /** Each card's latest sample, kept while a later heartbeat leaves the card out. */
  samplesByUuid: Map<string, CardValues>;
  /** The server's stall time excused (StallWatch) when the node was last heard. */
  excusedAtSeenMs: number;
}

/** What liveness reads of a node (`nodeLiveness`): its session, and when it was last heard. */
export interface HeardNode {
  isConnected: boolean;
  lastSeenMs: number;
}

/** Distinct repeated values kept for sharing; a fleet has a few dozen (models, versions, OSes). */
const REGISTER_STRINGS_MAX = 4_096;

/** The Register's values that repeat from node to node, shared in place; ids and uuids are not. */
function shareRegister(register: Register, strings: SharedStrings): void {
  register.agentVersion = strings.share(register.agentVersion);
  register.simulationProfile = strings.share(register.simulationProfile);
  strings.shareAll(register.features);
  strings.shareAll(register.engines);
  strings.shareAll(register.labels);
  const hardware = register.hardware;
  if (!hardware) return;
  hardware.os = strings.share(hardware.os);
  hardware.arch = strings.share(hardware.arch);
  hardware.driverVersion = strings.share(hardware.driverVersion);
  hardware.cudaVersion = strings.share(hardware.cudaVersion);
  if (hardware.cpu) hardware.cpu.model = strings.share(hardware.cpu.model);
  for (const gpu of hardware.gpus) {
    gpu.name = strings.share(gpu.name);
    gpu.computeCapability = strings.share(gpu.computeCapability);
    gpu.pciBusId = strings.share(gpu.pciBusId);
  }
}

function registeredUuid(register: Register, uuid: string): string {
  return register.hardware?.gpus.find((gpu) => gpu.uuid === uuid)?.uuid ?? uuid;
}

export class FleetRegistry {
  private readonly nodes = new Map<string, LiveNode>();
  private readonly strings = new SharedStrings(REGISTER_STRINGS_MAX);
  /** The last few minutes of card samples per node, for charts and idle detection. */
  readonly history = new GpuHistory();
  /** Labels, cordons and holds operators set; placement reads them with the live state. */
  readonly facility = new FacilityOverlay();
  /** Model descriptions from the config.json agents read in their sources, for sizing. */
  readonly sources = new SourceDescriptions();

  /** `stalls` excuses the server's own stalls from its nodes' silence; none are without one. */
  constructor(private readonly stalls: StallWatch = NO_STALL_WATCH) {}

  connect(register: Register, sessionId: number, nowMs: number): LiveNode {
    shareRegister(register, this.strings);
    const live: LiveNode = {
      nodeId: register.nodeId,
      register,
      sessionId,
      connectedAtMs: nowMs,
      lastSeenMs: nowMs,
      isConnected: true,
      disconnectedAtMs: null,
      heartbeat: null,
      heartbeats: 0,
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
    live.heartbeat ??= new NodeBeat();
    live.heartbeat.update(heartbeat);
    live.heartbeats += 1;
    live.heartbeatAtMs = nowMs;
    for (const sample of heartbeat.gpus) {
      let card = live.samplesByUuid.get(sample.uuid);
      if (card === undefined) {
        // A card seen for the first time is keyed (here and in the history) by the Register's
        // copy of its uuid, so the node keeps one string per card, not two.
        sample.uuid = registeredUuid(live.register, sample.uuid);
        live.samplesByUuid.set(sample.uuid, (card = new CardValues()));
      }
      card.update(sample);
    }
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
