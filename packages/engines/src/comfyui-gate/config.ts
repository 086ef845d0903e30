// Flags and environment of `llmgw comfyui-gate`, parsed in one place into a plain value. The
// replica key comes only from the environment, so it never shows in `ps`.
import { messageOf } from "@llmgw/domain";
import { parseArgs } from "node:util";

/** Where the gate reads the replica key; the comfyui adapter sets it. */
export const COMFYUI_GATE_KEY_VARIABLE = "LLMGW_REPLICA_KEY";

export interface GateConfig {
  host: string;
  port: number;
  comfyuiDir: string;
  baseDirectory: string;
  /** ComfyUI folder (checkpoints, vae, …) → fetched weights, a directory or one file. */
  modelDirs: { folder: string; path: string }[];
  /** The command that starts ComfyUI, without the flags the gate adds. */
  comfyuiCommand: string[];
  servedModelName: string;
  apiKey: string;
  /** The gate's environment without the key: ComfyUI's custom nodes run any code and get no key. */
  childEnv: Record<string, string | undefined>;
  /** How long ComfyUI may take to answer before the gate gives up (loading nodes can be slow). */
  startTimeoutMs: number;
}

export class GateConfigError extends Error {
  override readonly name = "GateConfigError";
}

export const COMFYUI_GATE_USAGE = `usage: llmgw comfyui-gate --port P --comfyui-dir DIR --base-directory DIR [options]

Starts ComfyUI on a free loopback port as a child and serves, on --port, only what the llmgw
router needs (POST /prompt, GET /queue, POST /queue {delete}, GET /history/ID, GET /view,
POST /interrupt, GET /object_info, /health, /v1/models), each demanding the replica key
(Authorization: Bearer, key from ${COMFYUI_GATE_KEY_VARIABLE}).

  --host HOST                   address of the gate (default 127.0.0.1)
  --port P                      the gate's port
  --comfyui-dir DIR             ComfyUI's checkout; the child runs there
  --base-directory DIR          this replica's own ComfyUI base directory (made if missing)
  --model-dir FOLDER=PATH       show PATH to ComfyUI in its FOLDER (checkpoints, vae, …); repeatable
  --comfyui-command "CMD"       how to start ComfyUI (default "python main.py")
  --served-model-name NAME      the name /v1/models answers (default comfyui)
  --start-timeout-s S           how long ComfyUI may take to answer (default 600)
`;

const FOLDER_PATTERN = /^[a-z][a-z0-9_]*$/;

function parseModelDir(text: string): { folder: string; path: string } {
  const equals = text.indexOf("=");
  const folder = text.slice(0, equals);
  const path = text.slice(equals + 1);
  if (equals < 0 || !FOLDER_PATTERN.test(folder) || path === "")
    throw new GateConfigError(
      `--model-dir "${text}" must be FOLDER=PATH, e.g. checkpoints=/cache/flux`,
    );
  return { folder, path };
}

/** Splits a command on spaces, keeping "quoted parts" together; no other shell syntax. */
export function splitCommand(text: string): string[] {
  const words = [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? "",
  );
  if (words.length === 0) throw new GateConfigError("--comfyui-command is empty");
  return words;
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === "") throw new GateConfigError(`${flag} is required`);
  return value;
}

export function parseGateArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): GateConfig {
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        host: { type: "string", default: "127.0.0.1" },
        port: { type: "string" },
        "comfyui-dir": { type: "string" },
        "base-directory": { type: "string" },
        "model-dir": { type: "string", multiple: true, default: [] },
        "comfyui-command": { type: "string", default: "python main.py" },
        "served-model-name": { type: "string", default: "comfyui" },
        "start-timeout-s": { type: "string", default: "600" },
      },
      strict: true,
    }).values;
  } catch (error) {
    throw new GateConfigError(messageOf(error));
  }
  const port = Number(required(values.port, "--port"));
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new GateConfigError(
      `--port must be a whole number from 1 to 65535, got "${values.port}"`,
    );
  const startTimeoutS = Number(values["start-timeout-s"]);
  if (!Number.isFinite(startTimeoutS) || startTimeoutS <= 0)
    throw new GateConfigError(
      `--start-timeout-s must be a positive number, got "${values["start-timeout-s"]}"`,
    );
  const apiKey = env[COMFYUI_GATE_KEY_VARIABLE];
  if (apiKey === undefined || apiKey === "")
    throw new GateConfigError(
      `${COMFYUI_GATE_KEY_VARIABLE} is not set; the gate exists to demand a key and will not run open`,
    );
  return {
    host: values.host,
    port,
    comfyuiDir: required(values["comfyui-dir"], "--comfyui-dir"),
    baseDirectory: required(values["base-directory"], "--base-directory"),
    modelDirs: values["model-dir"].map(parseModelDir),
    comfyuiCommand: splitCommand(values["comfyui-command"]),
    servedModelName: values["served-model-name"],
    apiKey,
    childEnv: Object.fromEntries(
      Object.entries(env).filter(([name]) => name !== COMFYUI_GATE_KEY_VARIABLE),
    ),
    startTimeoutMs: startTimeoutS * 1000,
  };
}

/** The environment the gate reads; this file is the one place it is read. */
export function gateEnv(): Readonly<Record<string, string | undefined>> {
  return process.env;
}
