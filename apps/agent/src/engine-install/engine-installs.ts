// The engines this agent installs itself, started in the background at agent start. While one
// builds, the node registers and serves everything else; when it is ready its name joins the
// node's offered engines and its binary is what the adapter runs. Its state goes to the control
// plane in every Register and Heartbeat (EngineInstall).
import { create } from "@bufbuild/protobuf";
import { EngineInstallPhase, EngineInstallSchema, type EngineInstall } from "@llmgw/proto";
import type { Logger } from "../log-ring";
import { EngineInstaller, type EngineBuilder, type EngineInstallStatus } from "./installer";
import { buildLlamaCpp } from "./llamacpp-build";
import { LLAMACPP_VERSION } from "./llamacpp-source";

export interface EngineInstalls {
  /** Every install's state, for Register and Heartbeat. */
  reports(): EngineInstall[];
  /** Resolves when every install has finished, ready or failed (tests and the build script). */
  settled(): Promise<void>;
}

export interface EngineInstallsOptions {
  engines: readonly string[];
  engineDir: string;
  logger: Logger;
  nowMs: () => number;
  /** An engine's install became ready: offer it, and run this binary for it. */
  onReady: (engine: string, executable: string) => void;
  /** Tests pass a fake; the real one builds llama.cpp. */
  builderFor?: (engine: string) => EngineBuilder;
}

const PHASES: Record<EngineInstallStatus["phase"], EngineInstallPhase> = {
  installing: EngineInstallPhase.INSTALLING,
  ready: EngineInstallPhase.READY,
  failed: EngineInstallPhase.FAILED,
};

export function startEngineInstalls(options: EngineInstallsOptions): EngineInstalls {
  const builderFor = options.builderFor ?? ((engine) => llamaCppBuilder(engine, options));
  const installers = options.engines.map(
    (engine) =>
      new EngineInstaller({
        engine,
        version: LLAMACPP_VERSION,
        builder: builderFor(engine),
        nowMs: options.nowMs,
        onChange: (status) => onChange(status, options),
      }),
  );
  const runs = installers.map((installer) => installer.start());
  return {
    reports: () => installers.map((installer) => toReport(installer.current())),
    settled: async () => {
      await Promise.all(runs);
    },
  };
}

function onChange(status: EngineInstallStatus, options: EngineInstallsOptions): void {
  const fields = { engine: status.engine, version: status.version, message: status.message };
  if (status.phase === "failed") {
    options.logger.error("engine install failed", {
      ...fields,
      last_lines: status.logTail.slice(-5).join(" | "),
    });
    return;
  }
  options.logger.info(`engine install ${status.phase}`, fields);
  if (status.phase === "ready" && status.executable !== undefined)
    options.onReady(status.engine, status.executable);
}

function llamaCppBuilder(engine: string, options: EngineInstallsOptions): EngineBuilder {
  if (engine !== "llamacpp") throw new Error(`the agent cannot install engine "${engine}"`);
  return {
    build: (onLine) => buildLlamaCpp({ engineDir: options.engineDir, onLine }),
  };
}

function toReport(status: EngineInstallStatus): EngineInstall {
  return create(EngineInstallSchema, {
    engine: status.engine,
    version: status.version,
    phase: PHASES[status.phase],
    message: status.message,
    logTail: status.logTail,
    changedAtMs: BigInt(status.changedAtMs),
  });
}
