// Engines a node installs itself (llama.cpp), as its agent last reported them: the heartbeat's list
// once one arrived, Register's before. A node offers an installed engine only once it is ready, so
// placement never sends a replica to a node still compiling it, nor one its engine build withholds.
import type { EngineInstallView } from "@llmgw/api";
import { EngineInstallPhase, type EngineInstall } from "@llmgw/proto";
import { reportOf } from "./engine-builds";
import type { LiveNode } from "./registry";

const STATES: Record<EngineInstallPhase, EngineInstallView["state"] | undefined> = {
  [EngineInstallPhase.UNSPECIFIED]: undefined,
  [EngineInstallPhase.INSTALLING]: "installing",
  [EngineInstallPhase.READY]: "ready",
  [EngineInstallPhase.FAILED]: "failed",
};

export function engineInstallsOf(live: Pick<LiveNode, "register" | "heartbeat">): EngineInstall[] {
  return live.heartbeat?.engineInstalls ?? live.register.engineInstalls;
}

/**
 * What the node found on its own plus the installs that are ready, less the GPU engines its engine
 * build withholds (vLLM under `none`).
 */
export function offeredEngines(live: Pick<LiveNode, "register" | "heartbeat">): string[] {
  const ready = engineInstallsOf(live)
    .filter((install) => install.phase === EngineInstallPhase.READY)
    .map((install) => install.engine);
  const withheld = reportOf(live)?.withheldEngines ?? [];
  return [...new Set([...live.register.engines, ...ready])].filter(
    (engine) => !withheld.includes(engine),
  );
}

export function engineInstallViews(
  live: Pick<LiveNode, "register" | "heartbeat">,
): EngineInstallView[] {
  return engineInstallsOf(live).flatMap((install) => {
    const state = STATES[install.phase];
    if (state === undefined) return [];
    return [
      {
        engine: install.engine,
        version: install.version,
        state,
        message: install.message,
        logTail: [...install.logTail],
        changedAt: new Date(Number(install.changedAtMs)).toISOString(),
      },
    ];
  });
}
