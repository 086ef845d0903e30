// `llmgw comfyui-gate`: writes the replica's model paths, starts ComfyUI as its child on a free
// loopback port, and serves the gate on the replica's port until SIGTERM (child stopped, exit 0) or
// until the child dies (exit 1 with the child's last lines, so the agent reports why).
import { messageOf } from "@llmgw/domain";
import type { Server } from "node:http";
import { answers, freeLoopbackPort, startComfyChild, waitForComfy, type ComfyChild } from "./child";
import {
  COMFYUI_GATE_USAGE,
  gateEnv,
  GateConfigError,
  parseGateArgs,
  type GateConfig,
} from "./config";
import { createGateServer } from "./gate-server";
import { writeExtraModelPaths } from "./model-paths";

const log = (line: string): void => void process.stderr.write(`${line}\n`);

export async function runComfyuiGate(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(COMFYUI_GATE_USAGE);
    return 0;
  }
  let config: GateConfig;
  let extraPathsFile: string;
  try {
    config = parseGateArgs(argv, gateEnv());
    extraPathsFile = writeExtraModelPaths(config.baseDirectory, config.modelDirs);
  } catch (error) {
    const message =
      error instanceof GateConfigError
        ? error.message
        : `cannot write the model paths: ${messageOf(error)}`;
    process.stderr.write(`llmgw comfyui-gate: ${message}\n\n${COMFYUI_GATE_USAGE}`);
    return 2;
  }
  const child = startComfyChild({
    command: config.comfyuiCommand,
    cwd: config.comfyuiDir,
    port: await freeLoopbackPort(),
    baseDirectory: config.baseDirectory,
    extraPathsFile,
    env: config.childEnv,
    log,
  });
  const server = createGateServer({
    apiKey: config.apiKey,
    servedModelName: config.servedModelName,
    upstreamUrl: child.url,
    isUpstreamUp: () => answers(child.url),
    log,
  });
  try {
    await listen(server, config);
  } catch (error) {
    log(`llmgw comfyui-gate: cannot listen on ${config.host}:${config.port}: ${messageOf(error)}`);
    await child.stop();
    return 1;
  }
  log(
    `comfyui-gate: listening on http://${config.host}:${config.port}, ComfyUI starting at ${child.url} in ${config.baseDirectory}`,
  );
  return superviseUntilDone(config, child, server);
}

function listen(server: Server, config: GateConfig): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
}

function superviseUntilDone(
  config: GateConfig,
  child: ComfyChild,
  server: Server,
): Promise<number> {
  return new Promise((resolve) => {
    let isStopping = false;
    const finish = (code: number): void => {
      process.off("SIGTERM", onTerm);
      process.off("SIGINT", onTerm);
      server.closeAllConnections();
      server.close(() => resolve(code));
    };
    const onTerm = (): void => {
      if (isStopping) return;
      isStopping = true;
      log("comfyui-gate: stopping ComfyUI on SIGTERM");
      void child.stop().then(() => finish(0));
    };
    process.once("SIGTERM", onTerm);
    process.once("SIGINT", onTerm);
    void child.exited.then(({ code, signal }) => {
      if (isStopping) return;
      isStopping = true;
      const lines = child.lastLines();
      log(
        `comfyui-gate: ComfyUI exited (${signal ?? `code ${code}`}); its last lines:\n${lines.map((line) => `  ${line}`).join("\n")}`,
      );
      finish(code === 0 ? 1 : code);
    });
    void waitForComfy(child, config.startTimeoutMs).then((outcome) => {
      if (outcome === "up") log(`comfyui-gate: ComfyUI answers at ${child.url}; ready`);
      if (outcome === "timeout" && !isStopping) {
        log(
          `comfyui-gate: ComfyUI did not answer within ${config.startTimeoutMs / 1000}s; stopping it`,
        );
        void child.stop();
      }
    });
  });
}
