// llama.cpp's `llama-server`: the engine that serves on CPU, so a cluster without cards is still
// useful. The key goes in LLAMA_API_KEY (read like --api-key). /metrics exists only with --metrics.
import { llamaCppLoraArgs } from "../lora-args";
import { checkLaunch, contextArgs, finishCommand } from "../launch";
import type { EngineAdapter, EngineMetricNames, KeyDelivery } from "../types";

export const LLAMACPP_METRIC_NAMES: EngineMetricNames = {
  runningRequests: ["llamacpp:requests_processing"],
  waitingRequests: ["llamacpp:requests_deferred"],
  // Older releases published it; the pinned release the agent builds does not (its /metrics was
  // checked), so this number stays absent for it rather than reading as an empty cache.
  kvCacheUsageRatio: ["llamacpp:kv_cache_usage_ratio"],
};

/** More layers than any model has: "offload everything" in a spelling every release accepts. */
const ALL_LAYERS = "999";

export function createLlamaCppAdapter(options: { executable?: string } = {}): EngineAdapter {
  const keyDelivery: KeyDelivery = { kind: "env", variable: "LLAMA_API_KEY" };
  // Several cards split by layers; tensor parallel is a different mechanism this adapter does not
  // drive, and accepting it would start a replica that quietly uses one card.
  const limits = {
    displayName: "llama.cpp",
    canServeOnCpu: true,
    supportsTensorParallel: false,
    supportsMultiNode: false,
  };
  return {
    name: "llamacpp",
    ...limits,
    keyDelivery,
    healthPath: "/health",
    workerHealthPath: undefined,
    metricsPath: "/metrics",
    metricNames: LLAMACPP_METRIC_NAMES,
    buildCommand(launch) {
      checkLaunch(launch, limits);
      const args = [
        "--model",
        launch.model,
        "--host",
        launch.host,
        "--port",
        String(launch.port),
        "--alias",
        launch.servedModelName,
        "--metrics",
        "--n-gpu-layers",
        launch.gpus.length > 0 ? ALL_LAYERS : "0",
        ...contextArgs("--ctx-size", launch),
        ...(launch.isEmbedding ? ["--embeddings"] : []),
        ...llamaCppLoraArgs(launch),
      ];
      return finishCommand(launch, keyDelivery, {
        command: options.executable ?? "llama-server",
        args,
      });
    },
  };
}

export const llamaCppAdapter = createLlamaCppAdapter();
