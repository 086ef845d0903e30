// `llmgw sim-engine`: parse flags, serve until SIGTERM/SIGINT (exit 0) or until a crash-after fault
// fires (exit 1, connections cut as a dying engine would leave them).
import { messageOf } from "@llmgw/domain";
import { listenForStopSignals } from "@llmgw/engines";
import {
  parseSimEngineArgs,
  SIM_ENGINE_USAGE,
  SimEngineConfigError,
  simEngineEnv,
  type SimEngineConfig,
} from "./config";
import { createSimEngine, type SimEngine } from "./server";
import { createShardGroup, type ShardGroup } from "./shard-group";

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
  // A peer lost before the stop handler is in place is kept and acted on as soon as it is.
  let onLost: (why: string) => void = (why) => (lostEarly = why);
  let lostEarly: string | undefined;
  const group =
    config.multiNode && createShardGroup(config.multiNode, config.host, (why) => onLost(why), log);
  const engine = createSimEngine(config, { log, ...(group ? { group } : {}) });
  let port: number;
  try {
    port = await engine.listen();
  } catch (error) {
    log(`llmgw sim-engine: cannot listen on ${config.host}:${config.port}: ${messageOf(error)}`);
    return 1;
  }
  try {
    await group?.start();
  } catch (error) {
    log(
      `llmgw sim-engine: cannot listen for workers on ${config.host}:${config.multiNode?.masterPort}: ${messageOf(error)}`,
    );
    await engine.close();
    return 1;
  }
  // Signal handlers go in before the announcement: a supervisor that reads "listening" may signal
  // at once, and a SIGTERM before the handler would kill the process instead of stopping it.
  const stopped = serveUntilStopped(engine, config, group, (lost) => {
    onLost = lost;
    if (lostEarly !== undefined) lost(lostEarly);
  });
  announce(config, port);
  return stopped;
}

function announce(config: SimEngineConfig, port: number): void {
  const multi = config.multiNode;
  if (multi)
    log(
      `sim-engine: simulated shard rank ${multi.nodeRank} of ${multi.nodeCount} nodes (leader ${multi.masterAddr}:${multi.masterPort}, ${multi.pipelineParallel} pipeline stages)${multi.nodeRank > 0 ? "; a worker serves no API, only /health" : ""}`,
    );
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

function serveUntilStopped(
  engine: SimEngine,
  config: SimEngineConfig,
  group: ShardGroup | undefined,
  onGroupLost: (lost: (why: string) => void) => void,
): Promise<number> {
  return new Promise((resolve) => {
    const timers: NodeJS.Timeout[] = [];
    let isStopping = false;
    // Kept until the engine has closed, so a repeated SIGTERM is not the default's kill.
    const signals = listenForStopSignals();
    const stop = (code: number, why: string): void => {
      if (isStopping) return;
      isStopping = true;
      timers.forEach(clearTimeout);
      log(`sim-engine: ${why}`);
      group?.close();
      void engine.close().then(() => {
        signals.dispose();
        resolve(code);
      });
    };
    onGroupLost((why) => stop(1, why));
    void signals.received.then((signal) => stop(0, `stopping on ${signal}`));
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
