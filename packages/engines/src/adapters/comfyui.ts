// ComfyUI asks for no key, so a comfyui replica is `llmgw comfyui-gate`: the gate takes the replica's
// port and key (from the environment) and starts ComfyUI as its child on the loopback, with a base
// directory of the replica's own and the fetched weights shown in ComfyUI's model folders.
// ComfyUI publishes no load metrics, so it is never scraped.
import { isAbsolute, join } from "node:path";
import { COMFYUI_GATE_KEY_VARIABLE } from "../comfyui-gate/config";
import { checkLaunch, finishCommand } from "../launch";
import { EngineLaunchError, type EngineAdapter, type KeyDelivery } from "../types";

/**
 * Folders the fetched weights are shown in: ComfyUI lists a folder's files recursively, so a
 * checkpoint, a diffusion model, its text encoders and VAE are each found by their own names by
 * whichever loader the workflow uses.
 */
export const COMFYUI_MODEL_FOLDERS = [
  "checkpoints",
  "diffusion_models",
  "text_encoders",
  "vae",
  "loras",
  "clip_vision",
] as const;

export interface ComfyuiAdapterOptions {
  /** ComfyUI's checkout; the agent's setting (engines.comfyui.dir / LLMGW_COMFYUI_DIR). */
  comfyuiDir: string;
  /** Where each replica gets its own base directory, `<root>/<replica id>`. */
  baseDirectoryRoot: string;
  /** How the gate starts ComfyUI; default `python main.py` (a simulated node: `llmgw sim-comfyui`). */
  comfyuiCommand?: string;
  /** The llmgw launcher; the agent passes its own (e.g. `node …/llmgw.mjs`). */
  command?: string;
  /** Arguments before the gate's own; default `["comfyui-gate"]`. */
  prefixArgs?: readonly string[];
}

const keyDelivery: KeyDelivery = { kind: "env", variable: COMFYUI_GATE_KEY_VARIABLE };
const limits = {
  displayName: "ComfyUI",
  canServeOnCpu: false,
  supportsTensorParallel: false,
  supportsMultiNode: false,
};

/** Quotes a profile argument for the gate's --comfyui-command, which splits on spaces and "…". */
function quoted(arg: string, replicaId: string): string {
  if (arg.includes('"') || arg.includes("'"))
    throw new EngineLaunchError(
      `replica "${replicaId}": ComfyUI argument ${arg} has a quote; the gate cannot pass it on`,
    );
  return /\s/.test(arg) ? `"${arg}"` : arg;
}

export function createComfyuiAdapter(options: ComfyuiAdapterOptions): EngineAdapter {
  return {
    name: "comfyui",
    ...limits,
    keyDelivery,
    healthPath: "/health",
    workerHealthPath: undefined,
    metricsPath: undefined,
    metricNames: undefined,
    buildCommand(launch) {
      checkLaunch(launch, limits);
      if (launch.apiKey === undefined)
        throw new EngineLaunchError(
          `replica "${launch.replicaId}": ComfyUI runs only behind its gate, and the gate needs the replica key`,
        );
      // The profile's own arguments are ComfyUI's (e.g. --lowvram), so they go on its command line.
      const comfyuiCommand = [
        options.comfyuiCommand ?? "python main.py",
        ...(launch.extraArgs ?? []).map((arg) => quoted(arg, launch.replicaId)),
      ].join(" ");
      const args = [
        ...(options.prefixArgs ?? ["comfyui-gate"]),
        "--host",
        launch.host,
        "--port",
        String(launch.port),
        "--comfyui-dir",
        options.comfyuiDir,
        "--base-directory",
        join(options.baseDirectoryRoot, launch.replicaId),
        // A hub id or URL means the weights were not fetched here (a simulated node): none to show.
        ...(isAbsolute(launch.model)
          ? COMFYUI_MODEL_FOLDERS.flatMap((folder) => ["--model-dir", `${folder}=${launch.model}`])
          : []),
        "--served-model-name",
        launch.servedModelName,
        "--comfyui-command",
        comfyuiCommand,
      ];
      return finishCommand({ ...launch, extraArgs: [] }, keyDelivery, {
        command: options.command ?? "llmgw",
        args,
      });
    },
  };
}
