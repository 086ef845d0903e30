// TensorRT-LLM's `trtllm-serve`. It has no API-key option, so the command carries a warning the
// agent shows; and its /metrics is JSON iteration statistics, not Prometheus, so it is not scraped
// (its load stays absent rather than being guessed).
import { EngineLaunchError, type EngineAdapter, type KeyDelivery } from "../types";
import { checkLaunch, contextArgs, finishCommand } from "../launch";

export function createTrtllmAdapter(options: { executable?: string } = {}): EngineAdapter {
  const keyDelivery: KeyDelivery = { kind: "none" };
  const limits = {
    displayName: "TensorRT-LLM",
    canServeOnCpu: false,
    supportsTensorParallel: true,
    // Across nodes it runs under mpirun, which the agent does not drive.
    supportsMultiNode: false,
  };
  return {
    name: "trtllm",
    ...limits,
    keyDelivery,
    healthPath: "/health",
    workerHealthPath: undefined,
    metricsPath: undefined,
    metricNames: undefined,
    buildCommand(launch) {
      const tensorParallel = checkLaunch(launch, limits);
      if (launch.isEmbedding) {
        throw new EngineLaunchError(
          `replica "${launch.replicaId}" on TensorRT-LLM: embeddings are not supported by this adapter; use vLLM or llama.cpp`,
        );
      }
      // trtllm-serve spells its options with underscores (click), unlike vLLM and SGLang.
      const args = [
        launch.model,
        "--host",
        launch.host,
        "--port",
        String(launch.port),
        "--served_model_name",
        launch.servedModelName,
        "--tp_size",
        String(tensorParallel),
        ...contextArgs("--max_seq_len", launch),
      ];
      return finishCommand(launch, keyDelivery, {
        command: options.executable ?? "trtllm-serve",
        args,
      });
    },
  };
}

export const trtllmAdapter = createTrtllmAdapter();
