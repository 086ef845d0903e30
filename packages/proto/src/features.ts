// What goes in Register.features: one name per kind of request an agent answers beyond
// heartbeats. The control plane sends a request only to an agent that announced its feature, and
// refuses at once otherwise, rather than waiting out a reply an older agent will never send.
import type { Envelope } from "./gen/llmgw/agent/v1/agent_pb";

export const AGENT_FEATURE = {
  /** StartReplica, StopReplica, DesiredReplicas. */
  replicas: "replicas",
  /** LogsRequest → LogsReply. */
  logs: "logs",
  /** LogsRequest with request_id or every_source, answered with structured records. */
  logSearch: "log-search",
  /** ReclaimRequest → ReclaimReply. */
  reclaim: "reclaim",
  /** UpgradeAgent → UpgradeReply: the agent upgrades itself to a stored release. */
  upgrade: "upgrade",
  /** EngineBuild: the agent keeps the GPU engine build chosen for it and reports it applied. */
  engineBuild: "engine-build",
  /** DoctorRequest → DoctorReply: the node's own checks, as `llmgw doctor` runs them. */
  doctor: "doctor",
  /** FabricTestRequest → FabricTestReply: RDMA adapters and ib_write_bw runs for `ctl fabric-test`. */
  fabricTest: "fabric-test",
} as const;

export type AgentFeature = (typeof AGENT_FEATURE)[keyof typeof AGENT_FEATURE];

type FrameCase = NonNullable<Envelope["msg"]["case"]>;

/** The feature an agent must announce before the control plane sends it each kind of request. */
export const FEATURE_FOR_REQUEST = {
  startReplica: AGENT_FEATURE.replicas,
  stopReplica: AGENT_FEATURE.replicas,
  desiredReplicas: AGENT_FEATURE.replicas,
  logsRequest: AGENT_FEATURE.logs,
  reclaimRequest: AGENT_FEATURE.reclaim,
  upgradeAgent: AGENT_FEATURE.upgrade,
  engineBuild: AGENT_FEATURE.engineBuild,
  doctorRequest: AGENT_FEATURE.doctor,
  fabricTestRequest: AGENT_FEATURE.fabricTest,
} as const satisfies Partial<Record<FrameCase, AgentFeature>>;
