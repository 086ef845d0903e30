// What `ctl bench` is handed: a ready replica's engine address and its own key, recorded on the
// audit log; a model without a ready replica, or a replica that is not the model's, is refused.
import { replicaCardsOf, ServiceError } from "@llmgw/api";
import { deriveReplicaKey } from "@llmgw/engines";
import { describe, expect, it, vi } from "vitest";
import type { FleetView } from "../fleet/fleet-view";
import type { ReplicaRecord } from "./replica-book";
import { createReplicasService } from "./replicas-service";

const SECRET = new Uint8Array(32).fill(3);
const ADMIN = { username: "ada" };

function replica(id: string, change: Partial<ReplicaRecord>): ReplicaRecord {
  return {
    ...{ id, model: "chat", profile: "sim", modelRevision: 1, nodeId: "n1", gpuIndexes: [0] },
    ...{ phase: "ready", message: "", createdAtMs: 0, engine: "vllm", host: "10.0.0.5" },
    ...{ port: 8001, fetchProgress: null, phaseChangedAtMs: 0, lastUsedAtMs: null },
    ...{ isLostStopped: false, lastSentMs: 0 },
    ...change,
  };
}

function service(records: ReplicaRecord[]) {
  const fleet = {
    catalog: { current: () => ({ get: (name: string) => (name === "chat" ? {} : undefined) }) },
    book: { ofModel: (model: string) => records.filter((r) => r.model === model) },
    registry: { get: () => ({ register: { nodeName: "gpu-a" } }) },
  } as unknown as FleetView;
  const audit = vi.fn(async () => undefined);
  return { replicas: createReplicasService(fleet, { replicaSecret: SECRET, audit }), audit };
}

async function refusal(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ServiceError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe("bench access", () => {
  it("hands out the first ready replica's address and its own key, and audits who asked", async () => {
    const { replicas, audit } = service([
      replica("chat-1", { phase: "starting" }),
      replica("chat-2", { host: "fd00::5", port: 8002 }),
    ]);
    const access = await replicas.benchAccess({ model: "chat" }, ADMIN);
    expect(access).toEqual({
      ...{ replicaId: "chat-2", model: "chat", engine: "vllm", nodeName: "gpu-a" },
      ...{ baseUrl: "http://[fd00::5]:8002/v1", servedModelName: "chat" },
      key: deriveReplicaKey(SECRET, "chat-2"),
    });
    expect(audit).toHaveBeenCalledWith({
      ...{ actor: "ada", action: "replica.bench_access", target: "chat-2" },
      details: { model: "chat" },
    });
  });

  it("refuses a model without a ready replica, naming it, and audits nothing", async () => {
    const { replicas, audit } = service([replica("chat-1", { phase: "fetching" })]);
    const none = await refusal(replicas.benchAccess({ model: "chat" }, ADMIN));
    expect(none.refusal).toEqual({ code: "replica.none_ready", params: { model: "chat" } });
    const named = await refusal(replicas.benchAccess({ model: "chat", replica: "chat-1" }, ADMIN));
    expect(named.refusal.code).toBe("replica.none_ready");
    expect(audit).not.toHaveBeenCalled();
  });

  it("refuses another model's replica and a model not in the catalog", async () => {
    const { replicas } = service([replica("chat-1", {}), replica("code-1", { model: "code" })]);
    const other = await refusal(replicas.benchAccess({ model: "chat", replica: "code-1" }, ADMIN));
    expect(other.refusal).toEqual({
      code: "replica.not_found",
      params: { id: "code-1", model: "chat" },
    });
    const ghost = await refusal(replicas.benchAccess({ model: "ghost" }, ADMIN));
    expect(ghost.refusal.code).toBe("model.not_found");
  });
});

describe("the light replica list (replicas.cards)", () => {
  it("says from the book itself what the full list would: who holds which card", async () => {
    const records = [
      replica("chat-1", { nodeId: "n1", gpuIndexes: [0, 1] }),
      replica("chat-2", { phase: "stopped", nodeId: "n2", gpuIndexes: [] }),
      replica("code-1", {
        ...{ model: "code", nodeId: "n2", gpuIndexes: [2] },
        shards: [
          {
            rank: 0,
            nodeId: "n2",
            gpuIndexes: [2],
            phase: "ready",
            message: "",
            phaseChangedAtMs: 0,
            lastSentMs: 0,
          },
          {
            rank: 1,
            nodeId: "n3",
            gpuIndexes: [0, 1],
            phase: "ready",
            message: "",
            phaseChangedAtMs: 0,
            lastSentMs: 0,
          },
        ],
      }),
    ];
    const all = vi.fn(() => records);
    const fleet = {
      book: { all },
      registry: { get: (id: string) => ({ register: { nodeName: `name-of-${id}` } }) },
    } as unknown as FleetView;
    const replicas = createReplicasService(fleet, { replicaSecret: SECRET, audit: vi.fn() });
    const light = await replicas.cards();
    expect(light).toEqual(replicaCardsOf(await replicas.list({})));
    expect(light.replicas.map((r) => r.id).sort()).toEqual(["chat-1", "code-1"]);
    expect(light.nodeIds).toEqual(["n1", "n2", "n3"]);
  });
});
