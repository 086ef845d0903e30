// `llmgw ctl doctor NODE` end to end: a real server, a real agent process (simulated cards, real
// host checks) answering DoctorRequest over its stream, the report through tRPC and through the
// CLI; and a node whose agent does not announce "doctor" (a peer speaking the wire protocol as an
// older agent) refused at once with its code, never sent a request it would not answer.
// The same fleet serves `ctl fabric-test A B`: two real agents on a host with no RDMA adapter answer
// that clearly, and the older agent is refused at once for that feature too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { TRPCClientError } from "@trpc/client";
import { AGENT_WS_PATH, decodeEnvelope, encodeEnvelope, type Envelope } from "@llmgw/proto";
import { joinAs, nodeTlsOptions, spawnLlmgw, tempDir, waitFor } from "@llmgw/testing";
import { ADMIN_PASSWORD, startFleet, type Fleet } from "./harness";

const NODE = "it-doctor-node";
const NODE_B = "it-doctor-node-b";
const OLD_NODE = "it-doctor-old";

describe("ctl doctor NODE through the agent's stream", () => {
  let fleet: Fleet;
  let configDir: string;
  let oldAgent: WebSocket;
  const oldAgentFrames: Envelope[] = [];

  beforeAll(async () => {
    fleet = await startFleet({
      agents: [
        { name: NODE, profile: "h100x8" },
        { name: NODE_B, profile: "h100x8" },
      ],
    });
    configDir = (await tempDir("it-doctor-ctl")).path;
    // An agent of before the doctor: it registers announcing only logs.
    const identity = await joinAs(fleet.server, OLD_NODE);
    oldAgent = new WebSocket(`${fleet.server.agentUrl}${AGENT_WS_PATH}`, {
      ...nodeTlsOptions(fleet.server, identity),
    });
    oldAgent.on("message", (data: Buffer) => oldAgentFrames.push(decodeEnvelope(data)));
    await new Promise((resolve, reject) => oldAgent.once("open", resolve).once("error", reject));
    oldAgent.send(
      encodeEnvelope({
        requestId: "r1",
        msg: {
          case: "register",
          value: {
            nodeId: OLD_NODE,
            nodeName: OLD_NODE,
            agentVersion: "0.9.0",
            features: ["logs"],
          },
        },
      }),
    );
    await waitFor(
      async () => {
        const names = (await fleet.api.nodes.list.query()).map((node) => node.name);
        return [NODE, NODE_B, OLD_NODE].every((name) => names.includes(name)) || undefined;
      },
      { what: "both nodes registered", timeoutMs: 60_000 },
    );
  });

  afterAll(async () => {
    oldAgent?.close();
    await fleet?.stop(Boolean(process.env.IT_DUMP));
  });

  async function ctl(args: string[], stdin?: string) {
    const proc = spawnLlmgw(["ctl", ...args], {
      env: { LLMGW_CONFIG_DIR: configDir },
      stdin: stdin === undefined ? "ignore" : "pipe",
    });
    if (stdin !== undefined) proc.child.stdin?.end(stdin);
    const exit = await proc.exited;
    return { code: exit.code, output: proc.output() };
  }

  it("answers the node's own checks, with the clock measured against the control plane", async () => {
    const view = await fleet.api.doctor.run.query({ node: NODE });
    expect(view.node).toBe(NODE);
    const ids = view.checks.map((check) => check.id);
    expect(ids).toEqual(
      expect.arrayContaining(["gpu.driver", "disk.cache", "clock.skew", "link.certificate"]),
    );
    // Both processes read this machine's clock: no skew beyond the request's own travel.
    expect(view.checks.find((check) => check.id === "clock.skew")?.status).toBe("pass");
    // The agent joined moments ago: its certificate is valid.
    expect(view.checks.find((check) => check.id === "link.certificate")?.status).toBe("pass");
    // The cards are simulated; the doctor reads the real host, which has no NVIDIA driver here.
    expect(view.checks.find((check) => check.id === "gpu.driver")?.summary).toMatch(/^no GPUs: /);
  });

  it("prints the same report with llmgw ctl, exit status 1 only when a check fails", async () => {
    const login = await ctl(
      ["login", "--server", fleet.server.apiUrl, "--password-stdin"],
      `${ADMIN_PASSWORD}\n`,
    );
    expect(login.code).toBe(0);
    const table = await ctl(["doctor", NODE]);
    expect(table.output).toMatch(
      new RegExp(`^node ${NODE}: \\d+ fail, \\d+ warn, \\d+ pass$`, "m"),
    );
    expect(table.output).toMatch(
      /^PASS\s+clock\.skew\s+clock [\d.]+ s (ahead of|behind) the control plane$/m,
    );
    expect(table.code).toBe(/^FAIL /m.test(table.output) ? 1 : 0);
  });

  it("refuses a node whose agent is too old at once, with a code, sending it nothing", async () => {
    const startedMs = Date.now();
    const refusal = await fleet.api.doctor.run.query({ node: OLD_NODE }).catch((e: unknown) => e);
    // The request would wait 30 s for an answer; a refusal comes without waiting.
    expect(Date.now() - startedMs).toBeLessThan(10_000);
    expect(refusal).toBeInstanceOf(TRPCClientError);
    const error = refusal as { message: string; data?: { refusal?: { code?: string } } };
    expect(error.message).toBe(
      `node "${OLD_NODE}" cannot answer "doctor" requests: its agent (version 0.9.0) does not announce the "doctor" feature; agent too old; upgrade the agent`,
    );
    expect(error.data?.refusal?.code).toBe("node.agent_too_old");
    expect(oldAgentFrames.filter((frame) => frame.msg.case === "doctorRequest")).toEqual([]);
  });

  it("fabric-test between two agents on a host without RDMA says so, naming node A first", async () => {
    const refusal = await fleet.api.fabric.test
      .mutate({ clientNode: NODE, serverNode: NODE_B, seconds: 1 })
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(TRPCClientError);
    const error = refusal as { message: string; data?: { refusal?: { code?: string } } };
    // This machine has no /sys/class/infiniband; were it ever run on one with adapters, the
    // refusal would differ and this test would say so.
    expect(error.message).toBe(
      `node "${NODE}" cannot take part in a fabric test: no RDMA adapters on this node (nothing under /sys/class/infiniband)`,
    );
    expect(error.data?.refusal?.code).toBe("fabric.no_rdma");
    const table = await ctl(["fabric-test", NODE, NODE_B, "--seconds", "1"]);
    expect(table.code).not.toBe(0);
    expect(table.output).toContain("no RDMA adapters on this node");
  });

  it("refuses fabric-test with an agent too old at once, sending it nothing", async () => {
    const startedMs = Date.now();
    const refusal = await fleet.api.fabric.test
      .mutate({ clientNode: NODE, serverNode: OLD_NODE })
      .catch((e: unknown) => e);
    expect(Date.now() - startedMs).toBeLessThan(10_000);
    const error = refusal as { message: string; data?: { refusal?: { code?: string } } };
    expect(error.data?.refusal?.code).toBe("node.agent_too_old");
    expect(error.message).toMatch(/does not announce the "fabric-test" feature; agent too old/);
    expect(oldAgentFrames.filter((frame) => frame.msg.case === "fabricTestRequest")).toEqual([]);
  });
});
