// vLLM: `vllm serve MODEL`. The key goes in VLLM_API_KEY, which vLLM reads like --api-key, so it
// never appears in `ps`. /health and /metrics are not behind the key; /v1/* is.
import { vllmLoraArgs } from "../lora-args";
import { checkLaunch, contextArgs, finishCommand, isGguf, pipelineParallel } from "../launch";
import type { EngineAdapter, EngineMetricNames, KeyDelivery, ReplicaLaunch } from "../types";

export const VLLM_METRIC_NAMES: EngineMetricNames = {
  runningRequests: ["vllm:num_requests_running"],
  waitingRequests: ["vllm:num_requests_waiting"],
  // vLLM renamed the gauge (V1 engine); both are fractions 0..1.
  kvCacheUsageRatio: ["vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"],
};

/**
 * vLLM across nodes without Ray, as its docs describe: every node runs `vllm serve` with the
 * multiprocessing backend, the node count, its rank and the leader's address and port; ranks
 * above 0 add `--headless` and serve no API. Pipeline stages take the cards beyond tensor parallel.
 */
export function vllmMultiNodeArgs(launch: ReplicaLaunch, tensorParallel: number): string[] {
  const multi = launch.multiNode;
  if (multi === undefined) return [];
  return [
    "--pipeline-parallel-size",
    String(pipelineParallel(launch, tensorParallel)),
    "--distributed-executor-backend",
    "mp",
    "--nnodes",
    String(multi.nodeCount),
    "--node-rank",
    String(multi.nodeRank),
    "--master-addr",
    multi.leaderHost,
    "--master-port",
    String(multi.leaderPort),
    ...(multi.nodeRank > 0 ? ["--headless"] : []),
  ];
}

export interface VllmAdapterOptions {
  executable?: string;
  /** "runner": `--runner pooling` (vLLM ≥ 0.10); "task": `--task embed` for older releases. */
  embeddingStyle?: "runner" | "task";
}

export function createVllmAdapter(options: VllmAdapterOptions = {}): EngineAdapter {
  const keyDelivery: KeyDelivery = { kind: "env", variable: "VLLM_API_KEY" };
  const limits = {
    displayName: "vLLM",
    canServeOnCpu: false,
    supportsTensorParallel: true,
    supportsMultiNode: true,
  };
  const embeddingArgs =
    options.embeddingStyle === "task" ? ["--task", "embed"] : ["--runner", "pooling"];
  return {
    name: "vllm",
    ...limits,
    keyDelivery,
    healthPath: "/health",
    // A headless worker (`--headless`) starts no API server: nothing answers on its port.
    workerHealthPath: undefined,
    metricsPath: "/metrics",
    metricNames: VLLM_METRIC_NAMES,
    buildCommand(launch) {
      const tensorParallel = checkLaunch(launch, limits);
      const args = [
        "serve",
        launch.model,
        "--host",
        launch.host,
        "--port",
        String(launch.port),
        "--served-model-name",
        launch.servedModelName,
        "--tensor-parallel-size",
        String(tensorParallel),
        ...contextArgs("--max-model-len", launch),
        // A hub id is downloaded by vLLM itself, past the agent's pickle check; this keeps it honest.
        ...(isGguf(launch.model) ? [] : ["--load-format", "safetensors"]),
        ...(launch.isEmbedding ? embeddingArgs : []),
        ...vllmMultiNodeArgs(launch, tensorParallel),
        ...vllmLoraArgs(launch),
      ];
      // Nodes often cannot reach the internet, and usage reports would leak model names.
      const extraEnv = { VLLM_NO_USAGE_STATS: "1", DO_NOT_TRACK: "1" };
      return finishCommand(launch, keyDelivery, {
        command: options.executable ?? "vllm",
        args,
        extraEnv,
      });
    },
  };
}

export const vllmAdapter = createVllmAdapter();
