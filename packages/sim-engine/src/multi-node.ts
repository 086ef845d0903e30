// vLLM's multi-node flags as the simulator reads them (`--nnodes`, `--node-rank`, `--master-addr`,
// `--master-port`, `--headless`, `--distributed-executor-backend mp`, `--pipeline-parallel-size`),
// checked the way a wrong launch would fail on a real cluster, so the agent's command line is
// tested, not just accepted.
import { z } from "zod";

export interface MultiNodeConfig {
  nodeCount: number;
  nodeRank: number;
  masterAddr: string;
  masterPort: number;
  pipelineParallel: number;
}

export const MULTI_NODE_STRING_FLAGS = [
  "nnodes",
  "node-rank",
  "master-addr",
  "master-port",
  "distributed-executor-backend",
  "pipeline-parallel-size",
] as const;

export const MULTI_NODE_USAGE = `  --nnodes N --node-rank R --master-addr HOST --master-port PORT
                            one shard of a replica spanning N nodes (vLLM's flags): rank 0 serves
                            and waits for its workers at HOST:PORT; ranks above 0 need --headless,
                            join it there and answer only /health
  --headless                a worker shard (rank above 0): no API
  --distributed-executor-backend mp   the only backend simulated across nodes
  --pipeline-parallel-size N          accepted and shown in /v1/models
`;

const count = (flag: string, min: number) =>
  z.coerce
    .number({ message: `${flag} must be a number` })
    .int(`${flag} must be a whole number`)
    .min(min, `${flag} must be at least ${min}`);

const multiNodeSchema = z.object({
  nnodes: count("--nnodes", 1).optional(),
  "node-rank": count("--node-rank", 0).optional(),
  "master-addr": z.string().min(1, "--master-addr must not be empty").optional(),
  "master-port": count("--master-port", 1).max(65535, "--master-port must be 1-65535").optional(),
  "distributed-executor-backend": z
    .enum(["mp"], { message: "--distributed-executor-backend must be mp (Ray is not simulated)" })
    .optional(),
  "pipeline-parallel-size": count("--pipeline-parallel-size", 1).default(1),
});

/** The shard this process plays, or undefined for a replica on one node; throws a sentence. */
export function parseMultiNode(
  values: Record<string, unknown>,
  isHeadless: boolean,
): MultiNodeConfig | undefined {
  const parsed = multiNodeSchema.safeParse(values);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join("; "));
  const flags = parsed.data;
  const nodeCount = flags.nnodes ?? 1;
  if (nodeCount === 1) {
    if (isHeadless || flags["node-rank"] !== undefined)
      throw new Error("--headless and --node-rank need --nnodes of 2 or more");
    return undefined;
  }
  const rank = flags["node-rank"];
  const addr = flags["master-addr"];
  const port = flags["master-port"];
  if (rank === undefined || addr === undefined || port === undefined)
    throw new Error("--nnodes above 1 needs --node-rank, --master-addr and --master-port");
  if (rank >= nodeCount) throw new Error(`--node-rank ${rank} must be below --nnodes ${nodeCount}`);
  if (rank > 0 && !isHeadless) throw new Error(`--node-rank ${rank} needs --headless`);
  if (rank === 0 && isHeadless) throw new Error("--headless is for ranks above 0");
  if (flags["distributed-executor-backend"] === undefined)
    throw new Error("--nnodes above 1 needs --distributed-executor-backend mp");
  return {
    nodeCount,
    nodeRank: rank,
    masterAddr: addr,
    masterPort: port,
    pipelineParallel: flags["pipeline-parallel-size"],
  };
}
