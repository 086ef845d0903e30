// Builds the engine side of the agent (weight cache, replica supervisor) from its configuration,
// so main.ts only wires. Which engines a node offers: the simulator on a simulated node, what
// engine-detect finds with the engines' environment on a real one.
import { INSTALL } from "@llmgw/domain/install";
import { ENGINE_NAMES } from "@llmgw/engines";
import os from "node:os";
import { join } from "node:path";
import { WeightCache } from "./cache/fetch";
import type { AgentConfig } from "./config";
import { startEngineInstalls, type EngineInstalls } from "./engine-install/engine-installs";
import { defaultEngineDir } from "./engine-install/llamacpp-source";
import type { Logger } from "./log-ring";
import { realProcessOps } from "./replicas/engine-process";
import { probeHealth } from "./replicas/health";
import type { ExecFn } from "./discovery/exec";
import { detectEngines } from "./replicas/engine-detect";
import type { ComfyuiHost, EngineHost } from "./replicas/launch-plan";
import type { ReplicaStatusInit } from "./replicas/replica-deps";
import { ReplicaSupervisor } from "./replicas/supervisor";

const ENGINE_HEALTH_POLL_MS = 500;
const ENGINE_STOP_GRACE_MS = 10_000;

/**
 * `llmgw sim-engine` from this installation: `<release>/bin/llmgw sim-engine` in a release,
 * `node <checkout>/packages/cli/bin/llmgw.mjs sim-engine` in a checkout.
 */
function defaultSimLauncher(): EngineHost["simLauncher"] {
  return {
    command: INSTALL.command.command,
    prefixArgs: [...INSTALL.command.prefixArgs, "sim-engine"],
  };
}

export interface EngineRuntimeOptions {
  config: AgentConfig;
  isSimulated: boolean;
  engineEnv: Record<string, string>;
  logger: Logger;
  exec: ExecFn;
  nowMs: () => number;
  onStatus: (status: ReplicaStatusInit) => void;
}

/** The engines this node offers; a simulated node stands in for every one. */
async function offeredEngines(options: EngineRuntimeOptions): Promise<string[]> {
  // A simulated node runs the simulator for every engine, and says so, so the real presets can be
  // placed and watched on a simulated fleet.
  if (options.isSimulated) return [...ENGINE_NAMES];
  const detection = await detectEngines(options.engineEnv, options.exec);
  for (const note of detection.notes) options.logger.warn("engine check failed", { why: note });
  // ComfyUI is no executable on PATH: a node offers it when its settings name the checkout.
  return options.config.comfyuiDir === undefined
    ? detection.engines
    : [...detection.engines, "comfyui"];
}

/**
 * How this node starts a comfyui replica: the gate from this installation, with ComfyUI from the
 * configured checkout, or on a simulated node with `llmgw sim-comfyui` (labelled simulated).
 */
function comfyuiHost(config: AgentConfig, isSimulated: boolean): ComfyuiHost | undefined {
  const launcher = INSTALL.command;
  const llmgw = [launcher.command, ...launcher.prefixArgs].map((part) => `"${part}"`).join(" ");
  const command = isSimulated ? `${llmgw} sim-comfyui --accept-any-model` : config.comfyuiCommand;
  const dir = config.comfyuiDir ?? (isSimulated ? config.dataDir : undefined);
  if (dir === undefined) return undefined;
  return {
    dir,
    command: command ?? "python main.py",
    baseDirectoryRoot: join(config.dataDir, "comfyui"),
    gateLauncher: {
      command: launcher.command,
      prefixArgs: [...launcher.prefixArgs, "comfyui-gate"],
    },
  };
}

export async function createEngineRuntime(options: EngineRuntimeOptions): Promise<{
  supervisor: ReplicaSupervisor;
  weights: WeightCache;
  /** Grows when an install becomes ready; Register reads it on every connection. */
  engines: string[];
  installs: EngineInstalls;
}> {
  const { config } = options;
  const engines = await offeredEngines(options);
  const executables: Record<string, string> = {};
  // An engine already on the engines' PATH is used as it is; only a missing one is built.
  const installs = startEngineInstalls({
    engines: options.isSimulated
      ? []
      : config.installEngines.filter((engine) => !engines.includes(engine)),
    engineDir: config.engineDir ?? defaultEngineDir({}),
    logger: options.logger,
    nowMs: options.nowMs,
    onReady: (engine, executable) => {
      executables[engine] = executable;
      if (!engines.includes(engine)) engines.push(engine);
    },
  });
  const weights = new WeightCache({
    dataDir: config.dataDir,
    hubUrl: config.hubUrl,
    nowMs: options.nowMs,
    log: (line) => options.logger.warn(line),
  });
  const supervisor = new ReplicaSupervisor({
    dataDir: config.dataDir,
    node: {
      isSimulated: options.isSimulated,
      engines,
      executables,
      simLauncher: defaultSimLauncher(),
      bindHost: config.engineHost,
      ...optional("comfyui", comfyuiHost(config, options.isSimulated)),
    },
    advertiseHost:
      config.advertiseHost ??
      (["0.0.0.0", "::"].includes(config.engineHost) ? os.hostname() : config.engineHost),
    baseEnv: options.engineEnv,
    processes: realProcessOps,
    probeHealth,
    weights,
    logger: options.logger,
    nowMs: options.nowMs,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    healthPollMs: ENGINE_HEALTH_POLL_MS,
    stopGraceMs: ENGINE_STOP_GRACE_MS,
    onStatus: options.onStatus,
  });
  return { supervisor, weights, engines, installs };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
