// The access rule of the agent port's control-plane routes, on its own: who reaches the handler.
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { handleAgentRequest, type AgentHttpOptions, type ControlPlanePeer } from "./agent-http";

function exchange(method = "GET", url = "/cp/v1/api/trpc/nodes.list") {
  const req = { method, url, socket: { remoteAddress: "10.0.0.2" } } as unknown as IncomingMessage;
  const answer = { status: 0, body: "" };
  const res = {
    headersSent: false,
    shouldKeepAlive: true,
    writeHead(status: number) {
      answer.status = status;
      return this;
    },
    end(body: string) {
      answer.body = body;
    },
  } as unknown as ServerResponse;
  return { req, res, answer };
}

function optionsFor(peer: ControlPlanePeer, underCap = false) {
  const handle = vi.fn();
  const admit = vi.fn();
  const options: AgentHttpOptions = {
    routes: [
      { method: "*", path: "/cp/v1/api/", access: "control-plane", handle },
      { method: "GET", path: "/agent/v1/releases/", access: "node", handle },
      { method: "POST", path: "/agent/v1/join", access: "open", handle },
    ],
    identify: () => ({ ok: true, nodeId: "node-1" }),
    identifyControlPlane: () => peer,
    admit,
    // Over the cap for strangers: a control plane is not counted as one.
    overCap: () => (underCap ? null : { status: 429, message: "too many", headers: {} }),
    log: () => undefined,
  };
  return { options, handle, admit };
}

describe("control-plane routes on the agent port", () => {
  it("hand a control plane's request of any method to the handler, past the strangers' cap", () => {
    const { options, handle, admit } = optionsFor({ ok: true, name: "cp-b" });
    const { req, res } = exchange("PUT", "/cp/v1/api/releases/x.tgz");
    handleAgentRequest(options, req, res);
    expect(handle).toHaveBeenCalledWith(expect.objectContaining({ rest: "releases/x.tgz" }), null);
    expect(admit).toHaveBeenCalledWith(req);
  });

  it("refuse a node's certificate with 403, and reach neither the handler nor the admission", () => {
    const refused = {
      ok: false,
      status: 403,
      reason: "a node certificate may not use it",
    } as const;
    const { options, handle, admit } = optionsFor(refused);
    const { req, res, answer } = exchange();
    handleAgentRequest(options, req, res);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ code: "forbidden" });
    expect([handle.mock.calls.length, admit.mock.calls.length]).toEqual([0, 0]);
  });

  it("refuse a caller without a certificate with 401", () => {
    const { options, handle } = optionsFor({ ok: false, status: 401, reason: "no certificate" });
    const { req, res, answer } = exchange();
    handleAgentRequest(options, req, res);
    expect([answer.status, handle.mock.calls.length]).toEqual([401, 0]);
  });
});

describe("node and open routes on the agent port", () => {
  it("take an identified node's connection out of the strangers' count and register timer", () => {
    // Else a node's release download is cut 10 s after its connection was made.
    const { options, handle, admit } = optionsFor({ ok: false, status: 403, reason: "" }, true);
    const { req, res } = exchange("GET", "/agent/v1/releases/llmgw-1.2.3.tgz");
    handleAgentRequest(options, req, res);
    expect(handle).toHaveBeenCalledWith(expect.anything(), "node-1");
    expect(admit).toHaveBeenCalledWith(req);
    expect(res.shouldKeepAlive).toBe(true);
  });

  it("close a stranger's connection after the answer instead of keeping it for another", () => {
    // The register timer still runs on it: a second request on it would be cut mid-way.
    const { options, handle, admit } = optionsFor({ ok: false, status: 403, reason: "" }, true);
    const { req, res } = exchange("POST", "/agent/v1/join");
    handleAgentRequest(options, req, res);
    expect(handle).toHaveBeenCalledWith(expect.anything(), null);
    expect(admit).not.toHaveBeenCalled();
    expect(res.shouldKeepAlive).toBe(false);
  });
});
