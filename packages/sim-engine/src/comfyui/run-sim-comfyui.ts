// `llmgw sim-comfyui`: a stand-in for `python main.py` of ComfyUI on machines that cannot run it,
// taking the same flags the gate gives ComfyUI, serving until SIGTERM/SIGINT (exit 0).
import { messageOf } from "@llmgw/domain";
import { parseArgs } from "node:util";
import { resolveModelDirs, startComfySim, type ComfySimOptions } from "./server";

export const SIM_COMFYUI_USAGE = `usage: llmgw sim-comfyui [options]

A simulated ComfyUI HTTP API (/prompt, /queue, /history, /view, /interrupt, /object_info,
/system_stats, /models): it validates workflows, runs them one at a time and draws PNG pictures.
It asks for no key, as ComfyUI does; put it behind llmgw comfyui-gate.

  --listen HOST                      address to listen on (default 127.0.0.1)
  --port N                           port (default 8188; 0 picks a free one)
  --base-directory DIR               models are found under DIR/models/<folder>
  --extra-model-paths-config FILE    an extra_model_paths.yaml (repeatable)
  --output-directory DIR             accepted for ComfyUI's sake; pictures stay in memory
  --step-ms MS                       time per sampler step (default 5)
`;

class SimComfyConfigError extends Error {
  override readonly name = "SimComfyConfigError";
}

function whole(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new SimComfyConfigError(
      `${flag} must be a whole number from ${min} to ${max}, got "${text}"`,
    );
  return value;
}

export function parseSimComfyArgs(argv: readonly string[]): ComfySimOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        listen: { type: "string", default: "127.0.0.1" },
        port: { type: "string", default: "8188" },
        "base-directory": { type: "string" },
        "extra-model-paths-config": { type: "string", multiple: true, default: [] },
        "output-directory": { type: "string" },
        "disable-auto-launch": { type: "boolean" },
        "step-ms": { type: "string", default: "5" },
      },
      strict: true,
    }).values;
  } catch (error) {
    throw new SimComfyConfigError(messageOf(error));
  }
  const base = parsed["base-directory"];
  const options: ComfySimOptions = {
    host: parsed.listen,
    port: whole("--port", parsed.port, 0, 65535),
    stepMs: whole("--step-ms", parsed["step-ms"], 0, 60_000),
    ...(base === undefined ? {} : { baseDirectory: base }),
    extraModelPathsConfigs: parsed["extra-model-paths-config"],
    argv,
  };
  try {
    resolveModelDirs(options);
  } catch (error) {
    throw new SimComfyConfigError(`--extra-model-paths-config: ${messageOf(error)}`);
  }
  return options;
}

const log = (line: string): void => void process.stderr.write(`${line}\n`);

export async function runSimComfyui(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(SIM_COMFYUI_USAGE);
    return 0;
  }
  let options: ComfySimOptions;
  try {
    options = parseSimComfyArgs(argv);
  } catch (error) {
    if (!(error instanceof SimComfyConfigError)) throw error;
    process.stderr.write(`llmgw sim-comfyui: ${error.message}\n\n${SIM_COMFYUI_USAGE}`);
    return 2;
  }
  let sim: Awaited<ReturnType<typeof startComfySim>>;
  try {
    sim = await startComfySim(options);
  } catch (error) {
    log(
      `llmgw sim-comfyui: cannot listen on ${options.host ?? "127.0.0.1"}:${options.port ?? 0}: ${messageOf(error)}`,
    );
    return 1;
  }
  const stopped = new Promise<number>((resolve) => {
    const stop = (signal: string): void => {
      log(`sim-comfyui: stopping on ${signal}`);
      void sim.close().then(() => resolve(0));
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  });
  // ComfyUI's own line, which scripts wait for, then ours saying this one is simulated.
  log(`To see the GUI go to: ${sim.url}`);
  log(
    `sim-comfyui: simulated ComfyUI listening on ${sim.url} (${options.stepMs ?? 5}ms a step; models ${resolveModelDirs(options).isChecked ? "checked against its folders" : "not checked"})`,
  );
  return stopped;
}
