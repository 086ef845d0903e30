// @llmgw/sim-engine: a real OpenAI-compatible HTTP server that stands in for an inference engine on
// simulated nodes and in tests: it demands its replica key, paces tokens, reports vLLM's metrics,
// and injects faults on request.
export {
  parseSimEngineArgs,
  SIM_ENGINE_USAGE,
  SimEngineConfigError,
  type SimEngineConfig,
} from "./config";
export { NO_FAULTS, parseFaults, type Faults } from "./faults";
export { encodePng } from "./png";
export { runSimEngine } from "./run-sim-engine";
export { createSimEngine, type SimEngine, type SimEngineDeps } from "./server";
export { runSimComfyui, SIM_COMFYUI_USAGE } from "./comfyui/run-sim-comfyui";
export { startComfySim, type ComfySimOptions } from "./comfyui/server";
