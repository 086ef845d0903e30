// The simulator (`llmgw sim-engine`): what simulated nodes run in place of a real engine. It speaks
// vLLM's metric names and, like vLLM, takes its key from the environment.
import { vllmLoraArgs } from "../lora-args";
import { checkLaunch, contextArgs, finishCommand } from "../launch";
import type { EngineAdapter, KeyDelivery } from "../types";
import { VLLM_METRIC_NAMES, vllmMultiNodeArgs } from "./vllm";

export const SIM_ENGINE_KEY_VARIABLE = "SIM_ENGINE_API_KEY";

export interface SimAdapterOptions {
  /** The llmgw launcher; the agent passes its own (e.g. `node …/llmgw.mjs`). */
  command?: string;
  /** Arguments before the simulator's own; default `["sim-engine"]`. */
  prefixArgs?: readonly string[];
}

export function createSimAdapter(options: SimAdapterOptions = {}): EngineAdapter {
  const keyDelivery: KeyDelivery = { kind: "env", variable: SIM_ENGINE_KEY_VARIABLE };
  // It stands in for every engine, so it accepts whatever a simulated profile asks for.
  const limits = {
    displayName: "sim-engine",
    canServeOnCpu: true,
    supportsTensorParallel: true,
    supportsMultiNode: true,
  };
  return {
    name: "sim",
    ...limits,
    keyDelivery,
    healthPath: "/health",
    // Its worker answers only /health (a real worker serves nothing), so the agent can see it run.
    workerHealthPath: "/health",
    metricsPath: "/metrics",
    metricNames: VLLM_METRIC_NAMES,
    buildCommand(launch) {
      const tensorParallel = checkLaunch(launch, limits);
      const args = [
        ...(options.prefixArgs ?? ["sim-engine"]),
        "--host",
        launch.host,
        "--port",
        String(launch.port),
        "--model",
        launch.servedModelName,
        ...contextArgs("--max-model-len", launch),
        // vLLM's multi-node flags, which it checks and plays out (a worker joins its leader).
        ...vllmMultiNodeArgs(launch, tensorParallel),
        ...vllmLoraArgs(launch),
      ];
      return finishCommand(launch, keyDelivery, { command: options.command ?? "llmgw", args });
    },
  };
}

export const simAdapter = createSimAdapter();
