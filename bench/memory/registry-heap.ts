// What the fleet registry keeps alive of its nodes' heartbeats, measured in one process so that no
// other load moves it: `tsx memory/registry-heap.ts [--nodes 2000] [--rounds 3]` registers N
// simulated h100x8 nodes (as the bench's agents report them), then, round after round, gives each
// a heartbeat decoded from the bytes a simulated agent sends (as the server decodes every frame),
// and reads V8's heap after a forced collection before the first heartbeat and after the last
// round. Whatever the registry holds of the last heartbeat per node is live at the server's next
// scavenges, so it is what V8 promotes to old space and later finds dead there.
import { createContext, runInContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { parseArgs } from "node:util";
import { createSimulation } from "@llmgw/agent";
import { create, decodeEnvelope, encodeEnvelope, RegisterSchema } from "@llmgw/proto";
import { FleetRegistry } from "@llmgw/server/node-records";

const PROFILE = "h100x8";
const MIB = 2 ** 20;

setFlagsFromString("--expose-gc");
const gc = runInContext("gc", createContext()) as () => void;

function heapUsedBytes(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      nodes: { type: "string", default: "2000" },
      rounds: { type: "string", default: "3" },
    },
  });
  const nodes = Number(values.nodes);
  const rounds = Number(values.rounds);
  const registry = new FleetRegistry();
  const simulations = Array.from({ length: nodes }, (_, at) => {
    const nodeId = `rh-${at}`;
    const simulation = createSimulation(PROFILE, nodeId, at);
    const hardware = { gpus: simulation.gpus, memoryBytesTotal: simulation.host.memoryBytesTotal };
    registry.connect(create(RegisterSchema, { nodeId, nodeName: nodeId, hardware }), 1, 0);
    return { nodeId, simulation };
  });
  const before = heapUsedBytes();
  for (let round = 1; round <= rounds; round += 1)
    for (const { nodeId, simulation } of simulations) {
      const { gpus, host } = simulation.step();
      const bytes = encodeEnvelope({
        msg: { case: "heartbeat", value: { sentAtMs: BigInt(round), gpus, ...host } },
      });
      const { msg } = decodeEnvelope(bytes);
      if (msg.case === "heartbeat") registry.heartbeat(nodeId, 1, msg.value, round * 2_000);
    }
  const after = heapUsedBytes();
  const usage = process.memoryUsage();
  console.log(
    `${nodes} nodes, ${rounds} heartbeats each: V8 heap used ${(before / MIB).toFixed(2)} → ${(after / MIB).toFixed(2)} MiB after a forced collection, ${((after - before) / nodes).toFixed(0)} bytes a node; external ${(usage.external / MIB).toFixed(1)} MiB (the GPU history's typed arrays)`,
  );
}

main();
