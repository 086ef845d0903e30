// @llmgw/engines owns what differs between inference engines: the command line and environment of
// a replica, where its key goes, its health path, and the names of its load metrics. The server
// uses it to validate profiles, the agent to spawn and scrape engines.
export {
  COMFYUI_MODEL_FOLDERS,
  createComfyuiAdapter,
  type ComfyuiAdapterOptions,
} from "./adapters/comfyui";
export { createLlamaCppAdapter, llamaCppAdapter, LLAMACPP_METRIC_NAMES } from "./adapters/llamacpp";
export { createSglangAdapter, sglangAdapter, SGLANG_METRIC_NAMES } from "./adapters/sglang";
export {
  createSimAdapter,
  simAdapter,
  SIM_ENGINE_KEY_VARIABLE,
  type SimAdapterOptions,
} from "./adapters/sim";
export { createTrtllmAdapter, trtllmAdapter } from "./adapters/trtllm";
export {
  createVllmAdapter,
  vllmAdapter,
  VLLM_METRIC_NAMES,
  type VllmAdapterOptions,
} from "./adapters/vllm";
export {
  parseEngineMetrics,
  parsePrometheusText,
  resolveMetricNames,
  type EngineLoad,
  type MetricNamesOverride,
} from "./metrics";
export { redactArgs, redactEnv, REDACTED } from "./redact";
export { engineAdapters, getEngineAdapter, isEngineName } from "./registry";
export { deriveReplicaKey } from "./replica-key";
export { listenForStopSignals, type StopSignals } from "./stop-signals";
export {
  ENGINE_NAMES,
  EngineLaunchError,
  type EngineAdapter,
  type EngineCommand,
  type EngineMetricNames,
  type EngineName,
  type KeyDelivery,
  type LaunchAdapter,
  type MultiNodeLaunch,
  type ReplicaLaunch,
} from "./types";
