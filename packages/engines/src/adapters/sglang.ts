// SGLang: `python -m sglang.launch_server`. It reads its key only from --api-key, so this is the
// one engine whose key is on the command line: keyDelivery says so, secretFlags names the flag,
// and whoever logs the command must pass it through redactArgs.
import { sglangLoraArgs } from "../lora-args";
import { checkLaunch, contextArgs, finishCommand, isGguf, pipelineParallel } from "../launch";
import type { EngineAdapter, EngineMetricNames, KeyDelivery, ReplicaLaunch } from "../types";

export const SGLANG_METRIC_NAMES: EngineMetricNames = {
  runningRequests: ["sglang:num_running_reqs"],
  waitingRequests: ["sglang:num_queue_reqs"],
  kvCacheUsageRatio: ["sglang:token_usage"],
};

/** SGLang across nodes: every node gets the node count, its rank and the leader's init address. */
function sglangMultiNodeArgs(launch: ReplicaLaunch, tensorParallel: number): string[] {
  const multi = launch.multiNode;
  if (multi === undefined) return [];
  const stages = pipelineParallel(launch, tensorParallel);
  const host = multi.leaderHost.includes(":") ? `[${multi.leaderHost}]` : multi.leaderHost;
  return [
    ...(stages > 1 ? ["--pp-size", String(stages)] : []),
    "--nnodes",
    String(multi.nodeCount),
    "--node-rank",
    String(multi.nodeRank),
    "--dist-init-addr",
    `${host}:${multi.leaderPort}`,
  ];
}

export function createSglangAdapter(options: { python?: string } = {}): EngineAdapter {
  const keyDelivery: KeyDelivery = { kind: "argv", flag: "--api-key" };
  const limits = {
    displayName: "SGLang",
    canServeOnCpu: false,
    supportsTensorParallel: true,
    supportsMultiNode: true,
  };
  return {
    name: "sglang",
    ...limits,
    keyDelivery,
    // /health_generate runs a one-token generation: right for a doubt, too dear to poll.
    healthPath: "/health",
    // Ranks above 0 run only the model's processes; the HTTP server is rank 0's.
    workerHealthPath: undefined,
    metricsPath: "/metrics",
    metricNames: SGLANG_METRIC_NAMES,
    buildCommand(launch) {
      const tensorParallel = checkLaunch(launch, limits);
      const args = [
        "-m",
        "sglang.launch_server",
        "--model-path",
        launch.model,
        "--host",
        launch.host,
        "--port",
        String(launch.port),
        "--served-model-name",
        launch.servedModelName,
        "--tp-size",
        String(tensorParallel),
        ...contextArgs("--context-length", launch),
        ...(isGguf(launch.model) ? [] : ["--load-format", "safetensors"]),
        "--enable-metrics",
        ...(launch.isEmbedding ? ["--is-embedding"] : []),
        ...sglangMultiNodeArgs(launch, tensorParallel),
        ...sglangLoraArgs(launch),
        // A worker serves no API, so it is not handed the key at all.
        ...(launch.apiKey === undefined || (launch.multiNode?.nodeRank ?? 0) > 0
          ? []
          : ["--api-key", launch.apiKey]),
      ];
      return finishCommand(launch, keyDelivery, { command: options.python ?? "python3", args });
    },
  };
}

export const sglangAdapter = createSglangAdapter();
