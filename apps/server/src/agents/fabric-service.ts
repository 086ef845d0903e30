// `llmgw ctl fabric-test A B`: both agents list their RDMA adapters (installing perftest the first
// time), then rail by rail B's agent starts an ib_write_bw server and A's runs the client against
// it, all over the agents' streams. An agent too old to answer is refused before anything is sent.
import { ServiceError, type FabricService, type FabricRailView } from "@llmgw/api";
import { auditLog, type Database } from "@llmgw/db";
import {
  AGENT_FEATURE,
  FabricTestRole,
  type FabricAdapter,
  type FabricTestReply,
} from "@llmgw/proto";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { FabricTestRequestSchema } from "@llmgw/proto";
import { downRail, failedRail, gradeRail, pairRails, type RailPair } from "./fabric-rails";
import { nodeIdFor, type NodeRequestDeps } from "./node-requests";

/** Listing may install perftest through apt-get: minutes on a slow mirror. */
const ADAPTERS_TIMEOUT_MS = 6 * 60_000;
const SERVER_TIMEOUT_MS = 30_000;
/** Beyond the run itself: queue-pair setup and the exchange before and after. */
const CLIENT_MARGIN_MS = 60_000;
/** perftest's default port; rail i uses the next i, so a server left from rail i-1 is no obstacle. */
const FIRST_PORT = 18515;

const RANK = { ok: 0, slow: 1, failed: 2 } as const;

interface Node {
  name: string;
  id: string;
}

type StepInit = Omit<MessageInitShape<typeof FabricTestRequestSchema>, "$typeName">;

async function ask(
  deps: NodeRequestDeps,
  node: Node,
  step: StepInit,
  timeoutMs: number,
): Promise<FabricTestReply> {
  const reply = await deps.links
    .request(node.id, { msg: { case: "fabricTestRequest", value: step } }, timeoutMs)
    .catch((error: Error) => {
      throw new Error(`node "${node.name}": ${error.message}`);
    });
  if (reply.msg.case === "error")
    throw new Error(`node "${node.name}": ${reply.msg.value.message}`);
  if (reply.msg.case !== "fabricTestReply")
    throw new Error(
      `node "${node.name}" answered ${reply.msg.case ?? "nothing"} instead of a fabric test step`,
    );
  if (reply.msg.value.error !== "")
    throw new Error(`node "${node.name}": ${reply.msg.value.error}`);
  return reply.msg.value;
}

async function adaptersOf(deps: NodeRequestDeps, node: Node) {
  const reply = await ask(deps, node, { role: FabricTestRole.ADAPTERS }, ADAPTERS_TIMEOUT_MS).catch(
    (error: Error) => {
      const reason = error.message.replace(`node "${node.name}": `, "");
      throw new ServiceError(
        "unavailable",
        `node "${node.name}" cannot take part in a fabric test: ${reason}`,
        {
          code: "fabric.no_rdma",
          params: { node: node.name, reason },
        },
      );
    },
  );
  return reply.adapters;
}

async function runRail(
  deps: NodeRequestDeps,
  nodes: { client: Node; server: Node },
  pair: RailPair,
  seconds: number,
): Promise<FabricRailView> {
  const down = downRail(pair);
  if (down !== null) return down;
  const run = { port: FIRST_PORT + pair.rail, durationSeconds: seconds };
  try {
    const server = await ask(
      deps,
      nodes.server,
      { ...run, role: FabricTestRole.SERVER, adapter: pair.server.name },
      SERVER_TIMEOUT_MS,
    );
    const client = await ask(
      deps,
      nodes.client,
      {
        ...run,
        role: FabricTestRole.CLIENT,
        adapter: pair.client.name,
        peerAddress: server.address,
      },
      seconds * 1000 + CLIENT_MARGIN_MS,
    );
    return gradeRail(pair, { averageGbps: client.averageGbps, peakGbps: client.peakGbps });
  } catch (error) {
    return failedRail(pair, (error as Error).message);
  }
}

function countsDiffer(
  nodes: { client: Node; server: Node },
  clientCount: number,
  serverCount: number,
) {
  return new ServiceError(
    "invalid",
    `node "${nodes.client.name}" has ${clientCount} RDMA adapters and "${nodes.server.name}" has ${serverCount}; rails pair adapters by index as NCCL does, so both nodes need the same number (check that every adapter shows in /sys/class/infiniband on both)`,
    {
      code: "fabric.adapter_counts_differ",
      params: {
        clientNode: nodes.client.name,
        clientCount: String(clientCount),
        serverNode: nodes.server.name,
        serverCount: String(serverCount),
      },
    },
  );
}

function liveNode(deps: NodeRequestDeps, name: string): Node {
  const id = nodeIdFor(deps, name, AGENT_FEATURE.fabricTest);
  return { id, name: deps.registry.get(id)?.register.nodeName ?? name };
}

export function createFabricService(
  deps: NodeRequestDeps & { db: Pick<Database, "insert"> },
): FabricService {
  return {
    async test(input, actor) {
      const nodes = {
        client: liveNode(deps, input.clientNode),
        server: liveNode(deps, input.serverNode),
      };
      if (nodes.client.id === nodes.server.id)
        throw new ServiceError(
          "invalid",
          `fabric-test needs two different nodes; "${nodes.client.name}" was named twice`,
          {
            code: "fabric.same_node",
            params: { node: nodes.client.name },
          },
        );
      // Both list at once (each may be installing perftest); A's refusal is reported before B's.
      const listed = await Promise.allSettled([
        adaptersOf(deps, nodes.client),
        adaptersOf(deps, nodes.server),
      ]);
      const [clientAdapters, serverAdapters] = listed.map((result) => {
        if (result.status === "rejected") throw result.reason;
        return result.value;
      }) as [FabricAdapter[], FabricAdapter[]];
      if (clientAdapters.length !== serverAdapters.length)
        throw countsDiffer(nodes, clientAdapters.length, serverAdapters.length);
      const rails: FabricRailView[] = [];
      // One rail at a time: rails share PCIe switches and CPU, and a run beside another measures both.
      for (const pair of pairRails(clientAdapters, serverAdapters))
        rails.push(await runRail(deps, nodes, pair, input.seconds));
      const status = rails.reduce<FabricRailView["status"]>(
        (worst, rail) => (RANK[rail.status] > RANK[worst] ? rail.status : worst),
        "ok",
      );
      await deps.db.insert(auditLog).values({
        actor: actor.username,
        action: "fabric.test",
        target: `${nodes.client.name} → ${nodes.server.name}`,
        details: {
          seconds: input.seconds,
          status,
          rails: rails.map((r) => ({ rail: r.rail, status: r.status, averageGbps: r.averageGbps })),
        },
      });
      return {
        clientNode: nodes.client.name,
        serverNode: nodes.server.name,
        seconds: input.seconds,
        status,
        rails,
      };
    },
  };
}
