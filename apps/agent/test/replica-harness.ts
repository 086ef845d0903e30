// A supervisor wired to real processes (the real `llmgw sim-engine`), a temp data dir and a log ring,
// for tests. Every engine group started through it is killed after the test, whatever happened.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { create } from "@bufbuild/protobuf";
import { StartReplicaSchema, type StartReplica } from "@llmgw/proto";
import { llmgwBin } from "@llmgw/testing";
import { WeightCache } from "../src/cache/fetch";
import { createLogger, LogRing } from "../src/log-ring";
import { realProcessOps, type ProcessOps } from "../src/replicas/engine-process";
import { probeHealth } from "../src/replicas/health";
import type { ReplicaStatusInit } from "../src/replicas/replica-deps";
import { ReplicaSupervisor } from "../src/replicas/supervisor";

export const TEST_KEY = "rk-test-0123456789abcdef-secret";
const startedGroups = new Set<number>();

function trackingProcessOps(): ProcessOps {
  return {
    ...realProcessOps,
    spawn: (request) => {
      const child = realProcessOps.spawn(request);
      if (child.pid !== undefined) startedGroups.add(child.pid);
      return child;
    },
  };
}

/** Kills every engine group a test started; call from afterEach. */
export function killStartedEngines(): void {
  for (const pgid of startedGroups) realProcessOps.signalGroup(pgid, "SIGKILL");
  startedGroups.clear();
}

export interface Harness {
  supervisor: ReplicaSupervisor;
  ring: LogRing;
  statuses: ReplicaStatusInit[];
  dataDir: string;
}

function makeDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), "llmgw-agent-"));
}

function simLauncher() {
  return { command: process.execPath, prefixArgs: [llmgwBin(), "sim-engine"] };
}

export function makeSupervisor(
  options: { dataDir?: string; isSimulated?: boolean; engines?: string[]; hubUrl?: string } = {},
): Harness {
  const dataDir = options.dataDir ?? makeDataDir();
  const ring = new LogRing();
  const logger = createLogger({ ring, write: () => {}, nowMs: Date.now });
  const statuses: ReplicaStatusInit[] = [];
  const supervisor = new ReplicaSupervisor({
    dataDir,
    node: {
      isSimulated: options.isSimulated ?? true,
      engines: options.engines ?? ["sim"],
      simLauncher: simLauncher(),
      bindHost: "127.0.0.1",
    },
    advertiseHost: "127.0.0.1",
    baseEnv: { PATH: "/usr/local/bin:/usr/bin:/bin" },
    processes: trackingProcessOps(),
    probeHealth,
    weights: new WeightCache({ dataDir, hubUrl: options.hubUrl }),
    logger,
    nowMs: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    healthPollMs: 100,
    stopGraceMs: 3000,
    onStatus: (status) => statuses.push(status),
  });
  return { supervisor, ring, statuses, dataDir };
}

export function startSpec(
  init: Partial<Omit<StartReplica, "$typeName" | "$unknown">> = {},
): StartReplica {
  return create(StartReplicaSchema, {
    replicaId: "r-1",
    model: "tiny",
    engine: "sim",
    source: "Qwen/Qwen2.5-0.5B",
    apiKey: TEST_KEY,
    args: ["--ready-after-ms", "300"],
    startTimeoutMs: 30_000,
    ...init,
  });
}
