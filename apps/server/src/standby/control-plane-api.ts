// The leader's side of a standby's /api: a route on the agent port, for other control planes of
// the cluster only (their certificate, mutual TLS), that hands the request to the same handler as
// the API port, under `/api/...`, while this process leads. A standby that lost the lease answers
// not_leader, and the standby that asked says so to its client instead of passing it on.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AgentRoute } from "../agents/agent-http";
import { acceptRelayed } from "../http/client-address";
import { sendJson } from "../http/send-json";

/** Where a standby sends `/api/X`: `/cp/v1/api/X` on the leader's agent port. */
export const CONTROL_PLANE_API_PREFIX = "/cp/v1/api/";
/** Marks the leader's refusal as "not the leader", apart from any 503 the API itself answers. */
export const NOT_LEADER_HEADER = "x-llmgw-not-leader";

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface ControlPlaneApiOptions {
  isLeader(): boolean;
  /** The API port's handler; null until the API port has started. */
  api(): RequestHandler | null;
}

export function controlPlaneApiRoute(options: ControlPlaneApiOptions): AgentRoute {
  return {
    method: "*",
    path: CONTROL_PLANE_API_PREFIX,
    access: "control-plane",
    handle: ({ req, res, rest }) => {
      const api = options.api();
      if (!options.isLeader() || !api)
        return sendJson(
          res,
          503,
          {
            code: "not_leader",
            message: api
              ? "this control plane does not lead now; ask the leader"
              : "this control plane is still starting",
          },
          { [NOT_LEADER_HEADER]: "1", "retry-after": "1" },
        );
      const query = (req.url ?? "").split("?").slice(1).join("?");
      req.url = `/api/${rest}${query ? `?${query}` : ""}`;
      acceptRelayed(req);
      api(req, res);
    },
  };
}
