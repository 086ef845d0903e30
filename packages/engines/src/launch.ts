// Checks and pieces every adapter shares, so each adapter file reads as its engine's flags only.
import {
  EngineLaunchError,
  type EngineCommand,
  type KeyDelivery,
  type ReplicaLaunch,
} from "./types";

export interface EngineLimits {
  displayName: string;
  canServeOnCpu: boolean;
  supportsTensorParallel: boolean;
  supportsMultiNode: boolean;
}

/** Cards the whole replica holds: this node's times the number of nodes it spans. */
function replicaCards(launch: ReplicaLaunch): number {
  return Math.max(1, launch.gpus.length) * (launch.multiNode?.nodeCount ?? 1);
}

function checkMultiNode(
  launch: ReplicaLaunch,
  limits: EngineLimits,
  fail: (why: string) => never,
): void {
  const multi = launch.multiNode;
  if (multi === undefined) return;
  if (!limits.supportsMultiNode) fail("it serves from one node; give the profile nodes: 1");
  if (!Number.isInteger(multi.nodeCount) || multi.nodeCount < 2)
    fail(`node count ${multi.nodeCount} is not a whole number ≥ 2`);
  if (!Number.isInteger(multi.nodeRank) || multi.nodeRank < 0 || multi.nodeRank >= multi.nodeCount)
    fail(`node rank ${multi.nodeRank} is not 0-${multi.nodeCount - 1}`);
  if (multi.leaderHost.trim() === "" || !/^[A-Za-z0-9.:_-]+$/.test(multi.leaderHost))
    fail(`leader host "${multi.leaderHost}" is not a host name or address`);
  if (!Number.isInteger(multi.leaderPort) || multi.leaderPort < 1 || multi.leaderPort > 65535)
    fail(`leader port ${multi.leaderPort} is not 1-65535`);
}

/** Returns the tensor-parallel size after refusing launches the engine cannot run. */
export function checkLaunch(launch: ReplicaLaunch, limits: EngineLimits): number {
  const fail = (why: string): never => {
    throw new EngineLaunchError(`replica "${launch.replicaId}" on ${limits.displayName}: ${why}`);
  };
  if (launch.model.trim() === "") fail("no model path or id given");
  if (launch.servedModelName.trim() === "") fail("no served model name given");
  if (!Number.isInteger(launch.port) || launch.port < 1 || launch.port > 65535) {
    fail(`port ${launch.port} is not 1-65535`);
  }
  if (launch.gpus.length === 0 && !limits.canServeOnCpu) {
    fail(`${limits.displayName} cannot serve on CPU; give the profile a GPU class`);
  }
  checkMultiNode(launch, limits, fail);
  const tensorParallel = launch.tensorParallel ?? 1;
  if (!Number.isInteger(tensorParallel) || tensorParallel < 1)
    fail(`tensor parallel ${tensorParallel} is not a whole number ≥ 1`);
  if (tensorParallel > 1 && !limits.supportsTensorParallel) {
    fail(
      `tensor parallel ${tensorParallel} is not supported; use 1 (cards split by layers instead)`,
    );
  }
  if (tensorParallel > replicaCards(launch)) {
    fail(
      `tensor parallel ${tensorParallel} needs ${tensorParallel} cards but the replica has ${replicaCards(launch)}`,
    );
  }
  if (
    launch.contextTokensMax !== undefined &&
    !(Number.isInteger(launch.contextTokensMax) && launch.contextTokensMax > 0)
  ) {
    fail(`context length ${launch.contextTokensMax} is not a positive whole number`);
  }
  if ((launch.extraArgs ?? []).some((arg) => /^--api[-_]key(=|$)/.test(arg))) {
    fail(
      "the profile's arguments set --api-key; the replica's key is derived by llmgw, remove it from args",
    );
  }
  return tensorParallel;
}

/**
 * The profile's environment first, then ours: a profile cannot move the replica onto other cards or
 * swap its key. An empty CUDA_VISIBLE_DEVICES hides every card, which is how a CPU replica is kept
 * off GPUs another replica owns.
 */
function launchEnv(launch: ReplicaLaunch, keyDelivery: KeyDelivery): Record<string, string> {
  const env: Record<string, string> = {
    ...launch.extraEnv,
    CUDA_VISIBLE_DEVICES: launch.gpus.join(","),
  };
  if (keyDelivery.kind === "env") {
    if (launch.apiKey !== undefined) env[keyDelivery.variable] = launch.apiKey;
    // A key inherited from the profile would be one the router does not know.
    else delete env[keyDelivery.variable];
  }
  return env;
}

/**
 * Pipeline stages across a replica spanning nodes: the cards left over after tensor parallelism
 * (vLLM's documented layout is tensor parallel within a node, pipeline parallel across nodes).
 */
export function pipelineParallel(launch: ReplicaLaunch, tensorParallel: number): number {
  return Math.max(1, Math.floor(replicaCards(launch) / tensorParallel));
}

export function contextArgs(flag: string, launch: ReplicaLaunch): string[] {
  return launch.contextTokensMax === undefined ? [] : [flag, String(launch.contextTokensMax)];
}

/** GGUF files carry their own format; every other source is held to safetensors (no pickle). */
export function isGguf(model: string): boolean {
  return /\.gguf$/i.test(model.split(/[?#]/)[0] ?? "");
}

export function finishCommand(
  launch: ReplicaLaunch,
  keyDelivery: KeyDelivery,
  parts: { command: string; args: string[]; extraEnv?: Record<string, string> },
): EngineCommand {
  const warnings: string[] = [];
  if (keyDelivery.kind === "none") {
    warnings.push(
      `this engine cannot check a key: anyone who can reach ${launch.host}:${launch.port} can use replica "${launch.replicaId}"`,
    );
  } else if (launch.apiKey === undefined) {
    warnings.push(
      `replica "${launch.replicaId}" starts without a key: anyone who can reach ${launch.host}:${launch.port} can use it`,
    );
  }
  return {
    command: parts.command,
    args: [...parts.args, ...(launch.extraArgs ?? [])],
    env: { ...launchEnv(launch, keyDelivery), ...parts.extraEnv },
    secretFlags: keyDelivery.kind === "argv" ? [keyDelivery.flag] : [],
    secretEnv: keyDelivery.kind === "env" ? [keyDelivery.variable] : [],
    warnings,
  };
}
