// Replicas, the cluster's status, a node's logs and doctor report, the RDMA fabric between two
// nodes, and reclaiming unused weights.
import { parseLinesFlag, parseSecondsFlag, required, UsageError } from "../args";
import { followLogs } from "../follow";
import { reclaimText, replicasTable, statusText } from "../views/cluster-view";
import { doctorText } from "../views/doctor-view";
import { fabricText } from "../views/fabric-view";
import { printJson, type Command, type CommandContext } from "./command";

const FOLLOW_INTERVAL_MS = 2_000;
/** Each poll asks for more than was shown, so consecutive answers overlap and nothing is skipped. */
const FOLLOW_WINDOW_LINES = 1_000;

// Short enough for the command list; --json is listed with the command's flags.
const LOGS_USAGE = "logs NODE [--source REPLICA] [--request ID] [-n N] [-f]";

/** The lines on the node naming one request, each behind the source that wrote it. */
async function requestLogs(ctx: CommandContext, node: string, requestId: string): Promise<number> {
  if (ctx.values.follow)
    throw new UsageError("--request and --follow do not go together: a request's lines are done");
  const lines = parseLinesFlag(ctx.values.lines);
  const source = ctx.values.source ?? "agent";
  const everySource = ctx.values.source === undefined;
  const view = await ctx.api.logs.get.query({ node, source, lines, requestId, everySource });
  if (ctx.values.json) {
    printJson(ctx, view);
    return view.lines.length > 0 ? 0 : 1;
  }
  if (view.lines.length === 0) {
    const where = everySource ? `node ${view.node}` : `${view.source} on node ${view.node}`;
    ctx.writeError(
      `no line of ${where} names request ${requestId} (${view.linesSearched ?? 0} lines searched; the node keeps the last 2000 of its agent and 500 of each engine)\n`,
    );
    return 1;
  }
  const width = Math.max(...view.records.map((record) => record.source.length), 0);
  const text = view.lines.map((line, index) => {
    const from = view.records[index]?.source ?? view.source;
    return `${from.padEnd(width)}  ${line}`;
  });
  ctx.write(`${text.join("\n")}\n`);
  return 0;
}

async function logs(ctx: CommandContext): Promise<number> {
  const node = required(ctx.args, 0, "NODE", LOGS_USAGE);
  if (ctx.values.request !== undefined) return requestLogs(ctx, node, ctx.values.request);
  const lines = parseLinesFlag(ctx.values.lines);
  const source = ctx.values.source ?? "agent";
  const view = await ctx.api.logs.get.query({ node, source, lines });
  if (ctx.values.json && !ctx.values.follow) {
    printJson(ctx, view);
    return 0;
  }
  const print = (batch: string[]) => {
    if (batch.length > 0) ctx.write(`${batch.join("\n")}\n`);
  };
  print(view.lines);
  if (!ctx.values.follow) return 0;
  const window = Math.max(lines, FOLLOW_WINDOW_LINES);
  await followLogs(view.lines, {
    fetchLines: async () => (await ctx.api.logs.get.query({ node, source, lines: window })).lines,
    write: print,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    isStopped: () => false,
    intervalMs: FOLLOW_INTERVAL_MS,
  });
  return 0;
}

export const clusterCommands: Record<string, Command> = {
  replicas: {
    usage: "replicas [--model M] [--node N] [--json]",
    summary: "replicas with their node, cards, phase and endpoint",
    flags: ["model", "node", "json"],
    async run(ctx) {
      const replicas = await ctx.api.replicas.list.query({
        model: ctx.values.model,
        node: ctx.values.node,
      });
      if (ctx.values.json) printJson(ctx, replicas);
      else
        ctx.write(replicas.length === 0 ? "no replicas\n" : replicasTable(replicas, ctx.nowMs()));
      return 0;
    },
  },
  status: {
    usage: "status [--json]",
    summary:
      "capacity per GPU class, free whole nodes (per fabric), parked, unplaceable and unasked-for models",
    flags: ["json"],
    async run(ctx) {
      const status = await ctx.api.status.get.query();
      if (ctx.values.json) printJson(ctx, status);
      else ctx.write(statusText(status));
      return 0;
    },
  },
  logs: {
    usage: LOGS_USAGE,
    summary:
      "the agent's log or a replica's engine output (-n up to 2000; --follow polls every 2 s; --request finds one request's lines)",
    flags: ["source", "request", "lines", "follow", "json"],
    takesArguments: true,
    run: logs,
  },
  doctor: {
    usage: "doctor NODE [--json]",
    summary:
      "the node's own checks through its agent: driver, PCIe links, disk, clock, certificate, engines",
    flags: ["json"],
    takesArguments: true,
    async run(ctx) {
      const node = required(ctx.args, 0, "NODE", "doctor NODE [--json]");
      const view = await ctx.api.doctor.run.query({ node });
      if (ctx.values.json) printJson(ctx, view);
      else ctx.write(doctorText(`node ${view.node}`, view.checks));
      return view.status === "fail" ? 1 : 0;
    },
  },
  "fabric-test": {
    usage: "fabric-test A B [--seconds N] [--json]",
    summary:
      "ib_write_bw between two nodes' RDMA adapters, rail by rail (B serves, A sends), graded against each link's rate",
    flags: ["seconds", "json"],
    takesArguments: true,
    async run(ctx) {
      const usage = "fabric-test A B [--seconds N] [--json]";
      const clientNode = required(ctx.args, 0, "A", usage);
      const serverNode = required(ctx.args, 1, "B", usage);
      const seconds = parseSecondsFlag(ctx.values.seconds);
      const view = await ctx.api.fabric.test.mutate({
        clientNode,
        serverNode,
        ...(seconds === undefined ? {} : { seconds }),
      });
      if (ctx.values.json) printJson(ctx, view);
      else ctx.write(fabricText(view));
      return view.status === "ok" ? 0 : 1;
    },
  },
  reclaim: {
    usage: "reclaim [--collect] [--json]",
    summary: "cached weights no model wants; --collect deletes them",
    flags: ["collect", "json"],
    async run(ctx) {
      const view = await ctx.api.reclaim.run.mutate({ collect: ctx.values.collect === true });
      if (ctx.values.json) printJson(ctx, view);
      else ctx.write(reclaimText(view));
      return view.nodes.some((node) => node.error !== null) ? 1 : 0;
    },
  },
};
