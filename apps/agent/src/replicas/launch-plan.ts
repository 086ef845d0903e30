// Which engine runs a replica on this node and with what command line. A real node runs only the
// engines it has; a simulated node has no GPUs, so it runs the simulator for every replica and says
// so in the replica's status, rather than pretending a vLLM is serving.
import {
  createComfyuiAdapter,
  createLlamaCppAdapter,
  createSimAdapter,
  getEngineAdapter,
  isEngineName,
  type EngineAdapter,
  type EngineCommand,
  type LaunchAdapter,
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
  /** How a comfyui replica starts; absent on a node that offers no ComfyUI. */
  comfyui?: ComfyuiHost;
}

export interface ComfyuiHost {
  /** ComfyUI's checkout (a simulated node: any directory, the simulator ignores it). */
  dir: string;
  /** How the gate starts ComfyUI: `python main.py`, or `llmgw sim-comfyui` on a simulated node. */
  command: string;
  /** Each replica's ComfyUI base directory is `<root>/<replica id>`. */
  baseDirectoryRoot: string;
  /** How to run `llmgw comfyui-gate` on this node. */
  gateLauncher: { command: string; prefixArgs: readonly string[] };
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
  if (spec.engine === "comfyui") return comfyuiPlan(node);
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

/** ComfyUI speaks no OpenAI API, so even a simulated node runs the real gate (with sim-comfyui). */
function comfyuiPlan(node: EngineHost): LaunchPlan {
  const host = node.comfyui;
  if (host === undefined || !node.engines.includes("comfyui"))
    throw new LaunchRefused(
      `this node has no ComfyUI (set --comfyui-dir or LLMGW_COMFYUI_DIR); it offers: ${listOrNone(node.engines)}`,
    );
  const adapter = createComfyuiAdapter({
    comfyuiDir: host.dir,
    comfyuiCommand: host.command,
    baseDirectoryRoot: host.baseDirectoryRoot,
    command: host.gateLauncher.command,
    prefixArgs: [...host.gateLauncher.prefixArgs],
  });
  const standIn = node.isSimulated
    ? "simulated node: sim-comfyui runs in place of ComfyUI behind the gate"
    : "";
  return { adapter, standIn };
}

export function buildEngineCommand(
  plan: LaunchPlan,
  spec: StartReplica,
  modelPath: string,
  port: number,
  node: EngineHost,
  multiNode?: MultiNodeLaunch,
  adapters: readonly LaunchAdapter[] = [],
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
    ...(adapters.length > 0 ? { adapters } : {}),
  };
  return plan.adapter.buildCommand(launch);
}

function listOrNone(engines: readonly string[]): string {
  return engines.length === 0 ? "none" : engines.join(", ");
}
