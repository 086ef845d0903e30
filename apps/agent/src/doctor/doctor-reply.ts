// The doctor's checks as the agent answers DoctorRequest over its stream: the same checks as
// `llmgw doctor`, with the running agent's engine installs and memory read rate, and the skew
// measured against the clock the control plane put in the request.
import { DoctorCheckStatus, EngineInstallPhase, type EngineInstall } from "@llmgw/proto";
import type { DoctorReplySchema } from "@llmgw/proto";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ExecFn } from "../discovery/exec";
import type { CheckStatus } from "./check";
import type { EngineInstallReading } from "./checks";
import { runDoctorChecks } from "./run-checks";

export type DoctorReplyInit = MessageInitShape<typeof DoctorReplySchema>;

const STATUS_ON_WIRE: Record<CheckStatus, DoctorCheckStatus> = {
  pass: DoctorCheckStatus.PASS,
  warn: DoctorCheckStatus.WARN,
  fail: DoctorCheckStatus.FAIL,
};

const PHASE_NAME: Record<EngineInstallPhase, string> = {
  [EngineInstallPhase.UNSPECIFIED]: "unknown",
  [EngineInstallPhase.INSTALLING]: "installing",
  [EngineInstallPhase.READY]: "ready",
  [EngineInstallPhase.FAILED]: "failed",
};

function installReadings(installs: readonly EngineInstall[]): EngineInstallReading[] {
  return installs.map((install) => ({
    engine: install.engine,
    state: PHASE_NAME[install.phase],
    message: install.message,
  }));
}

export interface AgentDoctorDeps {
  exec: ExecFn;
  nowMs: () => number;
  dataDir: string;
  engineInstalls: () => readonly EngineInstall[];
  /** The rate the agent measured after start; undefined until then. */
  memoryReadRate: () => number | undefined;
}

export async function answerDoctor(
  deps: AgentDoctorDeps,
  serverTimeMs: number,
): Promise<DoctorReplyInit> {
  const checks = await runDoctorChecks({
    exec: deps.exec,
    nowMs: deps.nowMs,
    dataDir: deps.dataDir,
    clockSkewMs: () =>
      Promise.resolve(
        serverTimeMs > 0
          ? { skewMs: deps.nowMs() - serverTimeMs }
          : { why: "the control plane sent no time" },
      ),
    engineInstalls: () => installReadings(deps.engineInstalls()),
    memoryReadRate: () => {
      const rate = deps.memoryReadRate();
      return rate === undefined
        ? Promise.reject(new Error("the agent measures it a few seconds after it starts"))
        : Promise.resolve(rate);
    },
  });
  return { checks: checks.map((check) => ({ ...check, status: STATUS_ON_WIRE[check.status] })) };
}
