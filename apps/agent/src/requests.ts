// Serves the control plane's requests on this node: replica lifecycle, logs, reclaim, upgrade,
// the engine build, the doctor's checks and the fabric test's steps. Each
// handler returns the reply frame (or nothing); the connection pairs it with the request id.
import type { Envelope, EnvelopeInit, FabricTestRequest, UpgradeAgent } from "@llmgw/proto";
import type { DoctorReplyInit } from "./doctor/doctor-reply";
import type { EngineBuildKeeper } from "./engine-build";
import type { FabricTestReplyInit } from "./fabric/fabric-reply";
import type { WeightCache } from "./cache/fetch";
import { reclaimCache } from "./cache/reclaim";
import type { LogRing } from "./log-ring";
import { answerLogs, readEngineLogsNow } from "./logs-answer";
import type { ReplicaSupervisor } from "./replicas/supervisor";
import type { UpgradeOutcome } from "./upgrade/self-upgrade";

export interface RequestContext {
  supervisor: ReplicaSupervisor;
  agentRing: LogRing;
  weights: WeightCache;
  /** Self-upgrade: `run` swaps the release in; `restart` stops the agent with status 75. */
  upgrade: { run(request: UpgradeAgent): Promise<UpgradeOutcome>; restart(): void };
  /** The GPU engine build the control plane chose for this node. */
  engineBuild: Pick<EngineBuildKeeper, "apply">;
  /** Runs the doctor's checks, the control plane's clock given for the skew. */
  doctor: (serverTimeMs: number) => Promise<DoctorReplyInit>;
  /** One step of `ctl fabric-test`: the adapters, an ib_write_bw server or its client. */
  fabricTest: (request: FabricTestRequest) => Promise<FabricTestReplyInit>;
}

export function createRequestHandler(
  context: RequestContext,
): (envelope: Envelope) => Promise<EnvelopeInit | undefined> {
  return async (envelope) => {
    const { msg } = envelope;
    switch (msg.case) {
      case "startReplica":
        context.supervisor.start(msg.value);
        return undefined;
      case "stopReplica":
        await context.supervisor.stop(msg.value.replicaId, msg.value.reason);
        return undefined;
      case "desiredReplicas":
        await context.supervisor.applyDesired(msg.value.replicas);
        return undefined;
      case "logsRequest":
        await readEngineLogsNow(msg.value, context.supervisor);
        return { msg: { case: "logsReply", value: answerLogs(msg.value, context) } };
      case "reclaimRequest": {
        const busy = context.supervisor.cacheInUse();
        for (const name of context.weights.fetching) busy.set(name, "being fetched right now");
        const reply = await reclaimCache(context.weights.cacheDir, msg.value, busy);
        return { msg: { case: "reclaimReply", value: reply } };
      }
      case "upgradeAgent": {
        const outcome = await context.upgrade.run(msg.value);
        // The reply is sent as soon as this handler returns; the restart waits for the next turn
        // of the event loop, so the control plane hears "ok" before the connection closes.
        if (outcome.ok && !outcome.alreadyCurrent) setImmediate(() => context.upgrade.restart());
        return { msg: { case: "upgradeReply", value: outcome } };
      }
      case "engineBuild":
        context.engineBuild.apply(msg.value.build);
        return undefined;
      case "doctorRequest": {
        const reply = await context.doctor(Number(msg.value.serverTimeMs));
        return { msg: { case: "doctorReply", value: reply } };
      }
      case "fabricTestRequest": {
        const reply = await context.fabricTest(msg.value);
        return { msg: { case: "fabricTestReply", value: reply } };
      }
      default:
        return undefined;
    }
  };
}
