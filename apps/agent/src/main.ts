// Wires the agent: config → node identity → inventory (discovered or simulated) → connection,
// and back down again on SIGINT/SIGTERM (or an abort signal, for tests and for `llmgw dev`).
import { messageOf } from "@llmgw/domain";
import { listenForStopSignals } from "@llmgw/engines";
import { loadConfig, loadEngineBaseEnv, type AgentConfig } from "./config";
import { EngineBuildKeeper } from "./engine-build";
import { createEngineRuntime } from "./engine-runtime";
import { createRequestHandler, type RequestContext } from "./requests";
import { AgentConnection } from "./connection";
import { createDemandReader } from "./engine-demand";
import { answerDoctor } from "./doctor/doctor-reply";
import { answerFabricTest, nodeFabricDeps } from "./fabric/fabric-reply";
import type { ReplicaStatusInit } from "./replicas/replica-deps";
import type { CardDemand } from "./simulate";
import { execProgram, type ExecFn } from "./discovery/exec";
import {
  AGENT_VERSION,
  buildHeartbeat,
  buildRegister,
  realInventory,
  simulatedInventory,
  type Inventory,
} from "./inventory";
import { createLogger, LogRing, type Logger } from "./log-ring";
import { startMemoryReadProbe } from "./memory-read-rate";
import { createNetworkRateSampler } from "./discovery/network";
import { ensureJoined, runJoinCommand } from "./join-command";
import { loadOrCreateNodeId } from "./node-identity";
import { loadNodeTls, saveServerUrls } from "./node-tls";
import { startRenewal } from "./renewal";
import { seedFromName, type RandomFn } from "./random";
import { EXIT_RESTART, selfUpgrade } from "./upgrade/self-upgrade";

/** What stopped the agent when it upgraded itself. */
const UPGRADED = "upgraded to a new release";

export interface AgentDeps {
  /** Parses argv (and the real environment) by default; tests pass a config value. */
  loadConfig: (argv: string[]) => AgentConfig;
  writeLog: (line: string) => void;
  exec: ExecFn;
  random: RandomFn;
  nowMs: () => number;
  /** Stops the agent when aborted; SIGINT and SIGTERM always do. */
  signal: AbortSignal | undefined;
  ring: LogRing;
  /** The environment engines inherit; the agent's own less LLMGW_* by default. */
  engineEnv: Record<string, string>;
}

/**
 * Runs the agent until SIGINT/SIGTERM (or deps.signal), then closes everything and resolves with
 * the exit status: 0, or 75 after a self-upgrade so the supervisor starts the new release.
 */
export async function runAgent(
  argv: string[],
  overrides: Partial<AgentDeps> = {},
): Promise<number> {
  const deps: AgentDeps = {
    loadConfig,
    writeLog: (line) => process.stderr.write(line),
    exec: execProgram,
    random: Math.random,
    nowMs: Date.now,
    signal: undefined,
    ring: new LogRing(),
    engineEnv: overrides.engineEnv ?? loadEngineBaseEnv(),
    ...overrides,
  };
  const logger = createLogger({ ring: deps.ring, write: deps.writeLog, nowMs: deps.nowMs });
  if (argv[0] === "join") {
    await runJoinCommand(argv.slice(1), deps.loadConfig, (line) =>
      process.stdout.write(`${line}\n`),
    );
    return 0;
  }
  const config = deps.loadConfig(argv);
  const nodeId = await loadOrCreateNodeId(config.dataDir);
  const lifetimeMs = await ensureJoined(config, logger);
  const upgraded = new AbortController();
  const stopped = waitForStop(deps.signal, upgraded.signal, logger);
  const stopRenewal = startRenewal(
    { dataDir: config.dataDir, serverUrls: () => config.serverUrls, logger, nowMs: deps.nowMs },
    lifetimeMs,
  );
  try {
    // The supervisor reports through the connection, which is built after it; the simulated
    // inventory reads the supervisor's engines, which are built after the inventory.
    const link: { connection?: AgentConnection; statuses?: () => ReplicaStatusInit[] } = {};
    const readDemands = createDemandReader(() => link.statuses?.() ?? []);
    const discovered = await loadInventory(config, deps, logger, readDemands);
    const runtime = await createEngineRuntime({
      config,
      isSimulated: discovered.simulationProfile !== undefined,
      engineEnv: deps.engineEnv,
      logger,
      exec: deps.exec,
      nowMs: deps.nowMs,
      onStatus: (status) =>
        link.connection?.sendFrame({ msg: { case: "replicaStatus", value: status } }),
    });
    link.statuses = () => runtime.supervisor.statuses();
    const inventory: Inventory = { ...discovered, engines: runtime.engines };
    logStart(logger, config, nodeId, inventory);
    // Engines left running by a previous agent are adopted before Register reports them.
    await runtime.supervisor.recover();
    const memoryRead = startMemoryReadProbe(logger);
    // The machine's own traffic, also for a simulated node: its agent is a real process there.
    const networkRate = createNetworkRateSampler(deps.nowMs);
    const engineBuild = new EngineBuildKeeper({
      dataDir: config.dataDir,
      node: { driverVersion: inventory.host.driverVersion ?? "", gpuCount: inventory.gpus.length },
      offered: () => runtime.engines,
      // The simulator stands in for every engine; on a real node what was found needs no build.
      onPath: discovered.simulationProfile === undefined ? [...runtime.engines] : [],
      logger,
    });
    const connection = new AgentConnection({
      serverUrls: config.serverUrls,
      register: () => ({
        ...buildRegister(
          config,
          nodeId,
          inventory,
          runtime.supervisor.statuses(),
          runtime.installs.reports(),
          runtime.weights.configs.all(),
        ),
        engineBuild: engineBuild.report(),
      }),
      heartbeat: async () => ({
        ...(await buildHeartbeat(
          inventory,
          memoryRead.current(),
          runtime.installs.reports(),
          runtime.weights.configs.takeFresh(),
        )),
        ...(await networkRate()),
        engineBuild: engineBuild.report(),
      }),
      replicaLevel: () => runtime.supervisor.statuses(),
      logger,
      random: deps.random,
      nowMs: deps.nowMs,
      tls: () => loadNodeTls(config.dataDir),
      // Every control plane a RegisterAck names is remembered where join saved the first ones.
      onServerUrls: (urls) => rememberServerUrls(config.dataDir, urls, logger),
      onRequest: createRequestHandler({
        supervisor: runtime.supervisor,
        agentRing: deps.ring,
        weights: runtime.weights,
        upgrade: upgradeHandlers(config, logger, () => link.connection?.serverUrl, upgraded),
        engineBuild,
        doctor: (serverTimeMs) =>
          answerDoctor(
            {
              exec: deps.exec,
              nowMs: deps.nowMs,
              dataDir: config.dataDir,
              engineInstalls: () => runtime.installs.reports(),
              memoryReadRate: () => memoryRead.current(),
            },
            serverTimeMs,
          ),
        fabricTest: (request) => answerFabricTest(nodeFabricDeps(deps.exec), request),
      }),
    });
    link.connection = connection;
    connection.start();
    const why = await stopped.promise;
    logger.info("stopping", { why });
    await connection.stop();
    // After an upgrade the new agent adopts the engines, whatever --stop-engines-on-exit says.
    if (why === UPGRADED) await runtime.supervisor.detach();
    else if (config.stopEnginesOnExit)
      await runtime.supervisor.stopAll("the agent is stopping (--stop-engines-on-exit)");
    else await runtime.supervisor.detach();
    logger.info("stopped");
    return why === UPGRADED ? EXIT_RESTART : 0;
  } finally {
    stopRenewal();
    stopped.dispose();
  }
}

function rememberServerUrls(dataDir: string, urls: readonly string[], logger: Logger): void {
  try {
    saveServerUrls(dataDir, urls);
  } catch (error) {
    logger.warn("control planes not saved", { dir: dataDir, why: messageOf(error) });
  }
}

/** Self-upgrade as the request handler uses it: swap the release in, then stop with status 75. */
function upgradeHandlers(
  config: AgentConfig,
  logger: Logger,
  serverUrl: () => string | undefined,
  upgraded: AbortController,
): RequestContext["upgrade"] {
  return {
    run: async (request) => {
      const outcome = await selfUpgrade(request, {
        runningVersion: AGENT_VERSION,
        serverUrl,
        dataDir: config.dataDir,
        // The release comes over the same mutual TLS as the stream: the node's own certificate.
        tls: loadNodeTls(config.dataDir) ?? undefined,
      });
      const level = outcome.ok ? "info" : "warn";
      logger.log(level, "upgrade", { to: request.version, error: outcome.error || undefined });
      return outcome;
    },
    restart: () => upgraded.abort(),
  };
}

async function loadInventory(
  config: AgentConfig,
  deps: AgentDeps,
  logger: Logger,
  readDemands: () => Promise<ReadonlyMap<number, CardDemand>>,
): Promise<Inventory> {
  if (config.simulationProfile === undefined)
    return realInventory(config.dataDir, deps.exec, logger);
  return simulatedInventory(
    config.simulationProfile,
    config.nodeName,
    config.seed ?? seedFromName(config.nodeName),
    readDemands,
    config.dataDir,
  );
}

function logStart(logger: Logger, config: AgentConfig, nodeId: string, inventory: Inventory): void {
  logger.info("starting", {
    node: config.nodeName,
    id: nodeId,
    servers: config.serverUrls.join(","),
    gpus: inventory.gpus.length,
    simulated: inventory.simulationProfile,
  });
}

/**
 * Resolves with what stopped the agent; dispose() removes the signal handlers again. They stay
 * for the whole stop, so a repeated SIGTERM (a process group's and then `llmgw dev`'s own) cannot
 * kill the agent while it stops its engines.
 */
function waitForStop(
  signal: AbortSignal | undefined,
  upgraded: AbortSignal,
  logger: Logger,
): {
  promise: Promise<string>;
  dispose: () => void;
} {
  const signals = listenForStopSignals((repeated) =>
    logger.info("already stopping", { signal: repeated }),
  );
  let dispose = () => {};
  const promise = new Promise<string>((resolve) => {
    const onAbort = () => resolve("aborted");
    const onUpgraded = () => resolve(UPGRADED);
    void signals.received.then(resolve);
    signal?.addEventListener("abort", onAbort, { once: true });
    upgraded.addEventListener("abort", onUpgraded, { once: true });
    if (signal?.aborted) resolve("aborted");
    dispose = () => {
      signals.dispose();
      signal?.removeEventListener("abort", onAbort);
      upgraded.removeEventListener("abort", onUpgraded);
    };
  });
  return { promise, dispose };
}
