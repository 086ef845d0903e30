// Which engine runs a replica on this node and with what command line. A real node runs only the
// engines it has; a simulated node has no GPUs, so it runs the simulator for every replica and says
// so in the replica's status, rather than pretending a vLLM is serving.
import {
  createLlamaCppAdapter,
  createSimAdapter,
  getEngineAdapter,
  isEngineName,
  type EngineAdapter,
  type EngineCommand,
  type MultiNodeLaunch,
  type ReplicaLaunch,
} from "@llmgw/engines";
import type { StartReplica } from "@llmgw/proto";

export interface EngineHost {
  isSimulated: boolean;
  /** Engines this node offers, as sent in Register.engines. */
  engines: readonly string[];
  /** Binaries the agent installed itself, by engine; an engine not named runs from PATH. */
  executables?: Readonly<Record<string, string>>;
  /** How to run `llmgw sim-engine` on this node. */
  simLauncher: { command: string; prefixArgs: readonly string[] };
  /** Address engines listen on. */
  bindHost: string;
}

export interface LaunchPlan {
  adapter: EngineAdapter;
  /** A sentence when the simulator stands in for the asked engine, else "". */
  standIn: string;
}

class LaunchRefused extends Error {
  override readonly name = "LaunchRefused";
}

export function chooseAdapter(spec: StartReplica, node: EngineHost): LaunchPlan {
  const simulator = createSimAdapter({
    command: node.simLauncher.command,
    prefixArgs: [...node.simLauncher.prefixArgs],
  });
  if (spec.engine === "sim") {
    if (!node.engines.includes("sim"))
      throw new LaunchRefused(
        `this node does not offer the simulator (engine "sim"); it offers: ${listOrNone(node.engines)}`,
      );
    return { adapter: simulator, standIn: "" };
  }
  if (!isEngineName(spec.engine)) throw new LaunchRefused(`unknown engine "${spec.engine}"`);
  if (node.isSimulated)
    return {
      adapter: simulator,
      standIn: `simulated node: sim-engine runs in place of ${spec.engine}`,
    };
  if (!node.engines.includes(spec.engine)) {
    throw new LaunchRefused(
      `this node has no ${spec.engine}; it offers: ${listOrNone(node.engines)}`,
    );
  }
  const installed = node.executables?.[spec.engine];
  // Only llama.cpp is installed by the agent; its binary lives in the engine cache, not on PATH.
  if (spec.engine === "llamacpp" && installed !== undefined)
    return { adapter: createLlamaCppAdapter({ executable: installed }), standIn: "" };
  return { adapter: getEngineAdapter(spec.engine), standIn: "" };
}

export function buildEngineCommand(
  plan: LaunchPlan,
  spec: StartReplica,
  modelPath: string,
  port: number,
  node: EngineHost,
  multiNode?: MultiNodeLaunch,
): EngineCommand {
  const launch: ReplicaLaunch = {
    replicaId: spec.replicaId,
    model: modelPath,
    servedModelName: spec.servedModelName || spec.model,
    host: node.bindHost,
    port,
    gpus: spec.gpuIndexes.map(String),
    ...(spec.tensorParallel > 0 ? { tensorParallel: spec.tensorParallel } : {}),
    ...(spec.contextLength > 0 ? { contextTokensMax: spec.contextLength } : {}),
    isEmbedding: spec.embeddings,
    // A stand-in simulator would refuse the real engine's flags; they mean nothing to it anyway.
    extraArgs: plan.standIn === "" ? spec.args : [],
    extraEnv: spec.env,
    ...(spec.apiKey !== "" ? { apiKey: spec.apiKey } : {}),
    ...(multiNode ? { multiNode } : {}),
  };
  return plan.adapter.buildCommand(launch);
}

function listOrNone(engines: readonly string[]): string {
  return engines.length === 0 ? "none" : engines.join(", ");
}
