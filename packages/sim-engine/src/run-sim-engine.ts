// `llmgw sim-engine`: parse flags, serve until SIGTERM/SIGINT (exit 0) or until a crash-after fault
// fires (exit 1, connections cut as a dying engine would leave them).
import { messageOf } from "@llmgw/domain";
import {
  parseSimEngineArgs,
  SIM_ENGINE_USAGE,
  SimEngineConfigError,
  simEngineEnv,
  type SimEngineConfig,
} from "./config";
import { createSimEngine, type SimEngine } from "./server";

const log = (line: string): void => void process.stderr.write(`${line}\n`);

export async function runSimEngine(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(SIM_ENGINE_USAGE);
    return 0;
  }
  let config: SimEngineConfig;
  try {
    config = parseSimEngineArgs(argv, simEngineEnv());
  } catch (error) {
    if (!(error instanceof SimEngineConfigError)) throw error;
    process.stderr.write(`llmgw sim-engine: ${error.message}\n\n${SIM_ENGINE_USAGE}`);
    return 2;
  }
  const engine = createSimEngine(config, { log });
  let port: number;
  try {
    port = await engine.listen();
  } catch (error) {
    log(`llmgw sim-engine: cannot listen on ${config.host}:${config.port}: ${messageOf(error)}`);
    return 1;
  }
  // Signal handlers go in before the announcement: a supervisor that reads "listening" may signal
  // at once, and a SIGTERM before the handler would kill the process instead of stopping it.
  const stopped = serveUntilStopped(engine, config);
  announce(config, port);
  return stopped;
}

function announce(config: SimEngineConfig, port: number): void {
  const faults = Object.entries(config.faults).filter(
    ([, value]) => value !== undefined && value !== false && value !== 0,
  );
  log(
    `sim-engine: listening on http://${config.host}:${port} model="${config.model}" ready in ${config.readyAfterMs}ms${faults.length > 0 ? ` faults=${JSON.stringify(Object.fromEntries(faults))}` : ""}`,
  );
  if (config.apiKey === undefined)
    log(
      "sim-engine: warning: no SIM_ENGINE_API_KEY or VLLM_API_KEY; anyone who can reach the port can use it",
    );
}

function serveUntilStopped(engine: SimEngine, config: SimEngineConfig): Promise<number> {
  return new Promise((resolve) => {
    const timers: NodeJS.Timeout[] = [];
    const stop = (code: number, why: string): void => {
      process.off("SIGTERM", onTerm);
      process.off("SIGINT", onInt);
      timers.forEach(clearTimeout);
      log(`sim-engine: ${why}`);
      void engine.close().then(() => resolve(code));
    };
    const onTerm = (): void => stop(0, "stopping on SIGTERM");
    const onInt = (): void => stop(0, "stopping on SIGINT");
    process.once("SIGTERM", onTerm);
    process.once("SIGINT", onInt);
    if (!config.faults.isNeverReady)
      timers.push(setTimeout(() => log("sim-engine: ready"), config.readyAfterMs));
    const { crashAfterMs } = config.faults;
    if (crashAfterMs !== undefined)
      timers.push(
        setTimeout(
          () => stop(1, `crashing after ${crashAfterMs}ms as --fault crash-after asked`),
          crashAfterMs,
        ),
      );
  });
}
