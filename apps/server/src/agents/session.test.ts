// The session state machine on its own, with a fake socket and a fixed clock.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  EnvelopeSchema,
  ErrorCode,
  RegisterSchema,
  type Envelope,
  type Register,
  type EnvelopeInit,
} from "@llmgw/proto";
import { FleetRegistry } from "../fleet/registry";
import type { AgentSocket } from "./agent-socket";
import { createAgentSession } from "./session";

function harness(
  certificateNodeId = "node-1",
  agentUrls?: () => readonly string[],
  saveRegistration?: (register: Register) => Promise<void>,
) {
  const sent: EnvelopeInit[] = [];
  const closed: Array<{ code: number; reason: string }> = [];
  const socket: AgentSocket = {
    remoteAddress: "127.0.0.1",
    certificateNodeId,
    send: (f) => sent.push(f),
    close: (code, reason) => closed.push({ code, reason }),
  };
  const registry = new FleetRegistry();
  let now = 1_000;
  const registered: string[] = [];
  const logs: string[] = [];
  const session = createAgentSession(socket, {
    heartbeatIntervalMs: 2_000,
    serverVersion: "test",
    registry,
    nowMs: () => now,
    onRegistered: (r) => registered.push(r.nodeId),
    onDisconnected: () => undefined,
    log: (line) => logs.push(line),
    ...(agentUrls ? { agentUrls } : {}),
    ...(saveRegistration ? { saveRegistration } : {}),
  });
  return {
    session,
    sent,
    closed,
    registry,
    registered,
    logs,
    advance: (ms: number) => (now += ms),
  };
}

const envelope = (init: EnvelopeInit): Envelope => create(EnvelopeSchema, init);
const register = (nodeId = "node-1", joinToken = "") =>
  envelope({
    requestId: "r1",
    msg: {
      case: "register",
      value: create(RegisterSchema, { nodeId, nodeName: "n1", joinToken }),
    },
  });

describe("agent session", () => {
  it("acknowledges a Register for the certificate's node with the heartbeat interval", () => {
    const h = harness();
    h.session.onEnvelope(register());
    expect(h.closed).toEqual([]);
    expect(h.sent[0]).toMatchObject({
      requestId: "r1",
      msg: { case: "registerAck", value: { nodeId: "node-1", heartbeatIntervalMs: 2_000 } },
    });
    expect(h.registered).toEqual(["node-1"]);
    expect(h.registry.get("node-1")?.isConnected).toBe(true);
  });

  it("names the control planes' agent addresses in the ack (none when it has none to tell)", () => {
    const h = harness("node-1", () => ["wss://cp-a:8081", "wss://cp-b:8081"]);
    h.session.onEnvelope(register());
    expect(h.sent[0]).toMatchObject({
      msg: { case: "registerAck", value: { agentUrls: ["wss://cp-a:8081", "wss://cp-b:8081"] } },
    });
    const bare = harness();
    bare.session.onEnvelope(register());
    expect(bare.sent[0]).toMatchObject({ msg: { case: "registerAck", value: { agentUrls: [] } } });
  });

  it("refuses node A's certificate registering as node B, join token or not, with 4401", () => {
    const h = harness("node-a");
    h.session.onEnvelope(register("node-b", "a-join-token-that-is-no-longer-read"));
    expect(h.sent[0]).toMatchObject({
      msg: { case: "error", value: { code: ErrorCode.UNAUTHENTICATED } },
    });
    expect(h.closed).toEqual([
      {
        code: 4401,
        reason: "the certificate belongs to node node-a; it cannot register as node-b",
      },
    ]);
    expect(h.registry.get("node-b")).toBeUndefined();
    expect(h.session.isRegistered()).toBe(false);
  });

  it("refuses a node id that could not be stored safely", () => {
    const h = harness("../../etc/passwd");
    h.session.onEnvelope(register("../../etc/passwd"));
    expect(h.closed[0]?.code).toBe(1008);
    expect(h.closed[0]?.reason).toMatch(/node_id/);
  });

  it("records heartbeats, answers pings, and marks the node disconnected on close", () => {
    const h = harness();
    h.session.onEnvelope(register());
    h.advance(500);
    h.session.onEnvelope(
      envelope({
        msg: { case: "heartbeat", value: { gpus: [{ uuid: "GPU-1", utilizationPercent: 42 }] } },
      }),
    );
    expect(h.registry.get("node-1")?.lastSeenMs).toBe(1_500);
    expect(h.registry.get("node-1")?.samplesByUuid.get("GPU-1")?.utilizationPercent).toBe(42);
    h.session.onEnvelope(
      envelope({ requestId: "p9", msg: { case: "ping", value: { sentAtMs: 77n } } }),
    );
    expect(h.sent.at(-1)).toMatchObject({
      requestId: "p9",
      msg: { case: "pong", value: { sentAtMs: 77n } },
    });
    h.session.onClose();
    expect(h.registry.get("node-1")?.isConnected).toBe(false);
  });

  it("does not let an old session's close mark a newer session disconnected", () => {
    const first = harness();
    first.session.onEnvelope(register());
    const registry = first.registry;
    registry.connect(create(RegisterSchema, { nodeId: "node-1", nodeName: "n1" }), 999_999, 2_000);
    first.session.onClose();
    expect(registry.get("node-1")?.isConnected).toBe(true);
  });
});

describe("agent session: acknowledged at once, the store's followers after the write", () => {
  const deferred = () => {
    let settle: { resolve(): void; reject(error: Error): void } = {
      resolve: () => undefined,
      reject: () => undefined,
    };
    const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    return { promise, ...settle };
  };
  const flush = () => new Promise((resolve) => setImmediate(resolve));

  it("sends the RegisterAck before the registration is written; onRegistered waits for the write", async () => {
    const write = deferred();
    const saved: string[] = [];
    const h = harness("node-1", undefined, (r) => {
      saved.push(r.nodeId);
      return write.promise;
    });
    h.session.onEnvelope(register());
    expect(saved).toEqual(["node-1"]);
    // Live and acknowledged at once; nodes-service shows it from the registry until written.
    expect(h.session.isRegistered()).toBe(true);
    expect(h.registry.get("node-1")?.isConnected).toBe(true);
    expect(h.sent[0]).toMatchObject({ requestId: "r1", msg: { case: "registerAck" } });
    await flush();
    // The reconciler and the engine build read the store: not told before the row is there.
    expect(h.registered).toEqual([]);
    write.resolve();
    await flush();
    expect(h.registered).toEqual(["node-1"]);
    expect(h.sent).toHaveLength(1);
  });

  it("tells onRegistered of a node whose write failed (it is live; the writer logged the failure)", async () => {
    const write = deferred();
    const h = harness("node-1", undefined, () => write.promise);
    h.session.onEnvelope(register());
    write.reject(new Error("store down"));
    await flush();
    expect(h.registered).toEqual(["node-1"]);
  });

  it("tells onRegistered nothing of a socket that closed while its registration was written", async () => {
    const write = deferred();
    const h = harness("node-1", undefined, () => write.promise);
    h.session.onEnvelope(register());
    h.session.onClose();
    write.resolve();
    await flush();
    expect(h.registered).toEqual([]);
  });
});

describe("agent session: source configs", () => {
  const QWEN = JSON.stringify({
    model_type: "qwen2",
    hidden_size: 3584,
    intermediate_size: 18_944,
    num_attention_heads: 28,
    num_hidden_layers: 28,
    num_key_value_heads: 4,
    torch_dtype: "bfloat16",
    vocab_size: 152_064,
  });

  it("an agent sending a huge and a malformed config.json is logged, not trusted, and stays registered", () => {
    const h = harness();
    const huge = `{"model_type":"qwen2","pad":"${"A".repeat(2 * 1024 * 1024)}"}`;
    h.session.onEnvelope(
      envelope({
        requestId: "r1",
        msg: {
          case: "register",
          value: create(RegisterSchema, {
            nodeId: "node-1",
            nodeName: "n1",
            sourceConfigs: [
              { source: "https://mirror/huge", configJson: huge },
              { source: "https://mirror/evil", configJson: '{"__proto__":{"polluted":1}' },
              { source: "https://mirror/nan", configJson: '{"num_hidden_layers":"NaN"}' },
            ],
          }),
        },
      }),
    );
    expect(h.sent[0]).toMatchObject({ msg: { case: "registerAck" } });
    expect(h.closed).toEqual([]);
    expect(h.logs).toHaveLength(3);
    expect(h.logs.join("\n")).not.toMatch(/at .*\.ts:\d+/);
    expect(h.registry.sources.reported("https://mirror/huge")).toBeUndefined();
    expect(h.registry.sources.reported("https://mirror/evil")).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("keeps a config.json a heartbeat reports", () => {
    const h = harness();
    h.session.onEnvelope(register());
    h.session.onEnvelope(
      envelope({
        msg: {
          case: "heartbeat",
          value: { sourceConfigs: [{ source: "file:///models/qwen", configJson: QWEN }] },
        },
      }),
    );
    expect(h.logs).toEqual([]);
    expect(h.registry.sources.reported("file:///models/qwen")?.kvHeads).toBe(4);
  });
});
