import type { ServiceError } from "@llmgw/api";
import {
  AGENT_FEATURE,
  create,
  FabricTestRole,
  RegisterSchema,
  type EnvelopeInit,
} from "@llmgw/proto";
import { EnvelopeSchema } from "@llmgw/proto";
import { describe, expect, it, vi } from "vitest";
import { FleetRegistry } from "../fleet/registry";
import { createFabricService } from "./fabric-service";
import { NodeLinks } from "./node-links";

const ADMIN = { username: "admin" };
const NDR = {
  state: "4: ACTIVE",
  rateGbps: 400,
  rateText: "400 Gb/sec (4X NDR)",
  linkLayer: "InfiniBand",
  gidIndex: -1,
};

type Answer = (request: EnvelopeInit) => EnvelopeInit["msg"];

/** Two nodes on real links; each agent's answers come from `answer` (the agents are simulated). */
function fleet(features: Record<string, string[]>, answer: Record<string, Answer>) {
  const registry = new FleetRegistry();
  const links = new NodeLinks();
  const sent: { node: string; init: EnvelopeInit }[] = [];
  const inserted: unknown[] = [];
  for (const [node, nodeFeatures] of Object.entries(features)) {
    registry.connect(
      create(RegisterSchema, {
        nodeId: node,
        nodeName: node,
        agentVersion: "1.0.0",
        features: nodeFeatures,
      }),
      1,
      0,
    );
    links.attach(node, 1, {
      remoteAddress: "10.0.0.1",
      certificateNodeId: node,
      send: (init) => {
        sent.push({ node, init });
        const msg = answer[node]?.(init);
        if (msg !== undefined)
          setTimeout(
            () => links.answer(node, create(EnvelopeSchema, { requestId: init.requestId, msg })),
            1,
          );
      },
      close: () => undefined,
    });
  }
  const db = {
    insert: vi.fn(() => ({ values: vi.fn(async (row: unknown) => void inserted.push(row)) })),
  };
  return { service: createFabricService({ registry, links, db: db as never }), sent, inserted };
}

const stepOf = (init: EnvelopeInit) =>
  init.msg?.case === "fabricTestRequest" ? init.msg.value : undefined;

function agent(adapters: string[], average = 380): Answer {
  return (init) => {
    const step = stepOf(init);
    if (step?.role === FabricTestRole.ADAPTERS)
      return {
        case: "fabricTestReply",
        value:
          adapters.length === 0
            ? { error: "no RDMA adapters on this node (nothing under /sys/class/infiniband)" }
            : { adapters: adapters.map((name) => ({ ...NDR, name })) },
      };
    if (step?.role === FabricTestRole.SERVER)
      return { case: "fabricTestReply", value: { address: "10.0.0.2" } };
    return {
      case: "fabricTestReply",
      value: { averageGbps: step?.adapter === "mlx5_1" ? 200 : average, peakGbps: 395 },
    };
  };
}

const both = [AGENT_FEATURE.fabricTest];

describe("createFabricService", () => {
  it("refuses an agent too old at once, with its code, sending neither node anything", async () => {
    const { service, sent } = fleet({ a: both, b: [AGENT_FEATURE.doctor] }, {});
    const refusal = await service
      .test({ clientNode: "a", serverNode: "b", seconds: 5 }, ADMIN)
      .catch((e: unknown) => e);
    expect((refusal as ServiceError).refusal).toEqual({
      code: "node.agent_too_old",
      params: { node: "b", feature: "fabric-test", version: "1.0.0" },
    });
    expect(sent).toEqual([]);
  });

  it("refuses a node with no RDMA adapters by name, and counts that differ", async () => {
    const none = fleet({ a: both, b: both }, { a: agent(["mlx5_0"]), b: agent([]) });
    const noRdma = await none.service
      .test({ clientNode: "a", serverNode: "b", seconds: 5 }, ADMIN)
      .catch((e: unknown) => e);
    expect((noRdma as ServiceError).message).toBe(
      'node "b" cannot take part in a fabric test: no RDMA adapters on this node (nothing under /sys/class/infiniband)',
    );
    expect((noRdma as ServiceError).refusal.code).toBe("fabric.no_rdma");
    const uneven = fleet(
      { a: both, b: both },
      { a: agent(["mlx5_0", "mlx5_1"]), b: agent(["mlx5_0"]) },
    );
    const differ = await uneven.service
      .test({ clientNode: "a", serverNode: "b", seconds: 5 }, ADMIN)
      .catch((e: unknown) => e);
    expect((differ as ServiceError).refusal).toEqual({
      code: "fabric.adapter_counts_differ",
      params: { clientNode: "a", clientCount: "2", serverNode: "b", serverCount: "1" },
    });
    const same = await uneven.service
      .test({ clientNode: "a", serverNode: "a", seconds: 5 }, ADMIN)
      .catch((e: unknown) => e);
    expect((same as ServiceError).refusal.code).toBe("fabric.same_node");
  });

  it("runs rail by rail, server on B before client on A, grades each and audits the run", async () => {
    const { service, sent, inserted } = fleet(
      { a: both, b: both },
      { a: agent(["mlx5_0", "mlx5_1"]), b: agent(["mlx5_0", "mlx5_1"]) },
    );
    const view = await service.test({ clientNode: "a", serverNode: "b", seconds: 3 }, ADMIN);
    const steps = sent
      .filter(({ init }) => stepOf(init)?.role !== FabricTestRole.ADAPTERS)
      .map(({ node, init }) => {
        const step = stepOf(init);
        return `${node} ${FabricTestRole[step?.role ?? 0]} ${step?.adapter} :${step?.port} ${step?.peerAddress ?? ""}`.trim();
      });
    expect(steps).toEqual([
      "b SERVER mlx5_0 :18515",
      "a CLIENT mlx5_0 :18515 10.0.0.2",
      "b SERVER mlx5_1 :18516",
      "a CLIENT mlx5_1 :18516 10.0.0.2",
    ]);
    expect(view.status).toBe("slow");
    expect(view.rails.map((rail) => [rail.rail, rail.status, rail.summary])).toEqual([
      [0, "ok", "380.0 Gb/s average, 95 % of the 400.0 Gb/s link"],
      [1, "slow", "200.0 Gb/s average, 50 % of the 400.0 Gb/s link"],
    ]);
    expect(inserted).toEqual([
      expect.objectContaining({ actor: "admin", action: "fabric.test", target: "a → b" }),
    ]);
  });
});
