// `llmgw ctl doctor NODE`: the node's agent runs the doctor's checks and answers over its stream.
// The control plane's clock rides in the request, so the agent reports the skew between the two.
import { ServiceError, type DoctorService, type DoctorView } from "@llmgw/api";
import { AGENT_FEATURE, DoctorCheckStatus, type DoctorReply } from "@llmgw/proto";
import { nodeIdFor, type NodeRequestDeps } from "./node-requests";

type CheckStatus = DoctorView["status"];

// A status this control plane does not know (from a newer agent) reads as a warning, never a pass.
const STATUS_NAME: Record<DoctorCheckStatus, CheckStatus> = {
  [DoctorCheckStatus.UNSPECIFIED]: "warn",
  [DoctorCheckStatus.PASS]: "pass",
  [DoctorCheckStatus.WARN]: "warn",
  [DoctorCheckStatus.FAIL]: "fail",
};

const RANK: Record<CheckStatus, number> = { pass: 0, warn: 1, fail: 2 };

function doctorView(node: string, reply: DoctorReply): DoctorView {
  const checks = reply.checks.map((check) => ({
    id: check.id,
    status: STATUS_NAME[check.status] ?? "warn",
    summary: check.summary,
    fix: check.fix,
  }));
  const status = checks.reduce<CheckStatus>(
    (worst, check) => (RANK[check.status] > RANK[worst] ? check.status : worst),
    "pass",
  );
  return { node, status, checks };
}

function refused(node: string, reason: string): ServiceError {
  return new ServiceError("unavailable", `node "${node}": ${reason}`, {
    code: "node.request_failed",
    params: { node, reason },
  });
}

export function createDoctorService(
  deps: NodeRequestDeps & { nowMs: () => number },
  timeoutMs: number,
): DoctorService {
  return {
    async run(node) {
      const nodeId = nodeIdFor(deps, node, AGENT_FEATURE.doctor);
      const request = { serverTimeMs: BigInt(Math.round(deps.nowMs())) };
      const reply = await deps.links
        .request(nodeId, { msg: { case: "doctorRequest", value: request } }, timeoutMs)
        .catch((error: Error) => {
          throw refused(node, error.message);
        });
      if (reply.msg.case === "error") throw refused(node, reply.msg.value.message);
      if (reply.msg.case !== "doctorReply")
        throw new ServiceError(
          "unavailable",
          `node "${node}" answered ${reply.msg.case ?? "nothing"} instead of a doctor report`,
          { code: "node.wrong_answer", params: { node, answer: reply.msg.case ?? "nothing" } },
        );
      return doctorView(node, reply.msg.value);
    },
  };
}
