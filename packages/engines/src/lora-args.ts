// How each engine is told to load a replica's LoRA adapters. Every adapter is served under
// `SERVED_NAME:ADAPTER`, the name clients send, so the gateway forwards the request unchanged
// wherever the engine can name adapters (vLLM, SGLang, the simulator). llama.cpp names none: it
// loads them at scale 0, and the gateway applies one per request by its index in the list.
import { VLLM_LORA_RANKS } from "@llmgw/domain";
import type { LaunchAdapter, ReplicaLaunch } from "./types";

function adaptersOf(launch: ReplicaLaunch): readonly LaunchAdapter[] {
  return launch.adapters ?? [];
}

function moduleSpecs(launch: ReplicaLaunch): string[] {
  return adaptersOf(launch).map(
    (adapter) => `${launch.servedModelName}:${adapter.name}=${adapter.path}`,
  );
}

function highestRank(launch: ReplicaLaunch): number {
  return Math.max(0, ...adaptersOf(launch).map((adapter) => adapter.rank ?? 0));
}

/** vLLM (and the simulator, which reads the same flags): names each adapter as a served model. */
export function vllmLoraArgs(launch: ReplicaLaunch): string[] {
  const adapters = adaptersOf(launch);
  if (adapters.length === 0) return [];
  const rank = highestRank(launch);
  const rankArgs =
    rank === 0
      ? []
      : ["--max-lora-rank", String(VLLM_LORA_RANKS.find((allowed) => allowed >= rank) ?? rank)];
  return [
    "--enable-lora",
    "--max-loras",
    String(adapters.length),
    ...rankArgs,
    "--lora-modules",
    ...moduleSpecs(launch),
  ];
}

export function sglangLoraArgs(launch: ReplicaLaunch): string[] {
  const adapters = adaptersOf(launch);
  if (adapters.length === 0) return [];
  const rank = highestRank(launch);
  return [
    "--lora-paths",
    ...moduleSpecs(launch),
    "--max-loras-per-batch",
    String(adapters.length),
    ...(rank === 0 ? [] : ["--max-lora-rank", String(rank)]),
  ];
}

/**
 * Loaded at scale 0, so the base model answers plain requests unchanged; the gateway sets one to
 * scale 1 per request. Not `--lora PATH --lora-init-without-apply`: llama-server keeps `--lora`'s
 * scale 1 as every request's default, so a request naming no adapter would get all of them
 * (seen with the real engine, apps/server/test/llamacpp-lora-real.int.test.ts).
 */
export function llamaCppLoraArgs(launch: ReplicaLaunch): string[] {
  return adaptersOf(launch).flatMap((adapter) => ["--lora-scaled", `${adapter.path}:0`]);
}
