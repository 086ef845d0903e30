// SGLang: `python -m sglang.launch_server`. It reads its key only from --api-key, so this is the
// one engine whose key is on the command line: keyDelivery says so, secretFlags names the flag,
// and whoever logs the command must pass it through redactArgs.
import { checkLaunch, contextArgs, finishCommand, isGguf } from "../launch";
import type { EngineAdapter, EngineMetricNames, KeyDelivery } from "../types";

export const SGLANG_METRIC_NAMES: EngineMetricNames = {
  runningRequests: ["sglang:num_running_reqs"],
  waitingRequests: ["sglang:num_queue_reqs"],
  kvCacheUsageRatio: ["sglang:token_usage"],
};

export function createSglangAdapter(options: { python?: string } = {}): EngineAdapter {
  const keyDelivery: KeyDelivery = { kind: "argv", flag: "--api-key" };
  const limits = { displayName: "SGLang", canServeOnCpu: false, supportsTensorParallel: true };
  return {
    name: "sglang",
    ...limits,
    keyDelivery,
    // /health_generate runs a one-token generation: right for a doubt, too dear to poll.
    healthPath: "/health",
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
        ...(launch.apiKey === undefined ? [] : ["--api-key", launch.apiKey]),
      ];
      return finishCommand(launch, keyDelivery, { command: options.python ?? "python3", args });
    },
  };
}

export const sglangAdapter = createSglangAdapter();
