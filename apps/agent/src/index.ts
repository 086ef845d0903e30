// The node agent: hardware discovery (or simulation), node identity, and the WebSocket session
// with the control plane. `runAgent` is what `llmgw agent` calls.
export { runAgent, type AgentDeps } from "./main";
export {
  parseConfig,
  loadConfig,
  agentConfigSchema,
  ConfigError,
  AGENT_FLAGS,
  DEFAULT_SERVER,
  DEFAULT_DATA_DIR,
  doctorDataDir,
  type AgentConfig,
} from "./config";
export { AgentConnection } from "./connection";
export {
  AUTH_CLOSE_CODES,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  DIAL_HANDSHAKE_TIMEOUT_MS,
  type ConnectionOptions,
  type ConnectionState,
} from "./connection-options";
export { TlsSessionCache, type TlsConnector } from "./tls-sessions";
export { createBackoff, backoffCeilingMs, DEFAULT_BACKOFF, type Backoff } from "./backoff";
export {
  parseNvidiaSmiCsv,
  parseNvidiaSmiVersion,
  discoverGpus,
  sampleGpus,
  NVIDIA_SMI_QUERY_FIELDS,
  NVIDIA_SMI_CORE_FIELDS,
  NVIDIA_SMI_OPTIONAL_FIELDS,
  type DiscoveredGpu,
  type GpuSampleValues,
  type GpuDiscovery,
} from "./discovery/nvidia-smi";
export {
  discoverHost,
  createHostLoadSampler,
  type HostInfo,
  type HostLoad,
} from "./discovery/host";
export { execProgram, type ExecFn } from "./discovery/exec";
export {
  createSimulation,
  simulatedGpuUuid,
  SIMULATION_PROFILES,
  SIMULATION_PROFILE_NAMES,
  type Simulation,
} from "./simulate";
export { LogRing, createLogger, LOG_RING_LINES, type Logger } from "./log-ring";
export { loadOrCreateNodeId } from "./node-identity";
export { loadNodeTls, type NodeTls } from "./node-tls";
export { joinCluster, JoinError } from "./join";
export { AGENT_VERSION, registerHardware } from "./inventory";
export { measureMemoryReadRate } from "./memory-read-rate";
export { nodeDoctor } from "./doctor/node-doctor";
export { worstStatus, type DoctorCheck, type CheckStatus } from "./doctor/check";
export { defaultEngineDir, llamaCppLayout } from "./engine-install/llamacpp-source";
