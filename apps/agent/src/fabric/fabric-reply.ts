// The agent's answer to FabricTestRequest, one step of `llmgw ctl fabric-test A B`: list the
// adapters (installing perftest the first time), start a server on one, or run the client.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { networkInterfaces, type NetworkInterfaceInfo } from "node:os";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { FabricTestRole, type FabricTestReplySchema, type FabricTestRequest } from "@llmgw/proto";
import { messageOf } from "@llmgw/domain";
import type { ExecFn } from "../discovery/exec";
import { listRdmaAdapters, SYSFS_INFINIBAND, type RdmaAdapter } from "./rdma-adapters";
import {
  ensurePerftest,
  runClient,
  startProgram,
  startServer,
  type PerftestRun,
  type StartFn,
} from "./perftest";
import { parsePerftestTable } from "./perftest-table";

export type FabricTestReplyInit = MessageInitShape<typeof FabricTestReplySchema>;

export const NO_RDMA = "no RDMA adapters on this node (nothing under /sys/class/infiniband)";

export interface FabricDeps {
  /** /sys/class/infiniband, or a fake tree in tests. */
  sysfsRoot: string;
  exec: ExecFn;
  start: StartFn;
  networkInterfaces: () => NodeJS.Dict<NetworkInterfaceInfo[]>;
}

/** The node's own sysfs, programs and interfaces; exec is the agent's (injected in its tests). */
export function nodeFabricDeps(exec: ExecFn): FabricDeps {
  return { sysfsRoot: SYSFS_INFINIBAND, exec, start: startProgram, networkInterfaces };
}

const firstIpv4 = (infos: readonly NetworkInterfaceInfo[] | undefined) =>
  infos?.find((info) => info.family === "IPv4" && !info.internal)?.address;

/** The adapter's own network interface's IPv4 (RoCE, IPoIB), else the node's first one. */
async function serverAddress(deps: FabricDeps, adapter: string): Promise<string> {
  const interfaces = deps.networkInterfaces();
  const own = await readdir(join(deps.sysfsRoot, adapter, "device/net")).catch(() => []);
  for (const name of own) {
    const address = firstIpv4(interfaces[name]);
    if (address !== undefined) return address;
  }
  const any = Object.values(interfaces)
    .map(firstIpv4)
    .find((address) => address !== undefined);
  if (any === undefined) throw new Error("this node has no IPv4 address to offer the client");
  return any;
}

function adapterNamed(adapters: readonly RdmaAdapter[], name: string): RdmaAdapter {
  const adapter = adapters.find((candidate) => candidate.name === name);
  if (adapter === undefined)
    throw new Error(
      `no RDMA adapter "${name}" on this node (it has ${adapters.map((a) => a.name).join(", ") || "none"})`,
    );
  return adapter;
}

async function answerStep(
  deps: FabricDeps,
  request: FabricTestRequest,
): Promise<FabricTestReplyInit> {
  const adapters = await listRdmaAdapters(deps.sysfsRoot);
  if (adapters.length === 0) return { error: NO_RDMA };
  if (request.role === FabricTestRole.ADAPTERS) {
    await ensurePerftest(deps.exec);
    return { adapters };
  }
  const run: PerftestRun = {
    adapter: request.adapter,
    durationSeconds: Math.max(1, request.durationSeconds),
    port: request.port,
    sizeBytes: request.sizeBytes,
    gidIndex: adapterNamed(adapters, request.adapter).gidIndex,
  };
  if (request.role === FabricTestRole.SERVER) {
    const address = await serverAddress(deps, request.adapter);
    await startServer(deps.start, run);
    return { address };
  }
  if (request.role === FabricTestRole.CLIENT) {
    if (request.peerAddress === "") throw new Error("the client step names no server address");
    const output = await runClient(deps.exec, run, request.peerAddress);
    return { ...parsePerftestTable(output), output: output.slice(-2_000) };
  }
  throw new Error(`fabric-test role ${request.role} is not one this agent knows`);
}

/** Every failure becomes the reply's error: the control plane shows it beside the rail. */
export async function answerFabricTest(
  deps: FabricDeps,
  request: FabricTestRequest,
): Promise<FabricTestReplyInit> {
  try {
    return await answerStep(deps, request);
  } catch (error) {
    return { error: messageOf(error) };
  }
}
