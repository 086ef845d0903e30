// llmgw:admin, the built-in read-only MCP server: answered in this process from the same
// services `llmgw ctl` calls, so its answers are the CLI's (as `--json` prints them). Nothing here
// changes anything, and no token is kept for it.
import { messageOf } from "@llmgw/domain";
import type { ApiServices } from "@llmgw/api";
import { z } from "zod";

export interface AdminTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required?: string[] };
  run(services: ApiServices, args: Record<string, unknown>): Promise<unknown>;
}

const text = (description: string) => ({ type: "string", description });
const modelArgs = z.object({ model: z.string().trim().min(1, "model is required").max(200) });
const replicaArgs = z.object({
  model: z.string().trim().max(200).optional(),
  node: z.string().trim().max(200).optional(),
});
const logArgs = z.object({
  node: z.string().trim().min(1, "node is required").max(200),
  source: z.string().trim().min(1).max(200).default("agent"),
  lines: z.number().int().min(1).max(2_000).default(200),
});

export const ADMIN_TOOLS: readonly AdminTool[] = [
  {
    name: "cluster_status",
    description: "Nodes, cards and models at a glance (llmgw ctl status).",
    inputSchema: { type: "object", properties: {} },
    run: (services) => services.status.get(),
  },
  {
    name: "list_nodes",
    description: "Every node with its cards, state and engines (llmgw ctl nodes list).",
    inputSchema: { type: "object", properties: {} },
    run: (services) => services.nodes.list(),
  },
  {
    name: "list_models",
    description: "The catalog's models with their replicas and state (llmgw ctl models list).",
    inputSchema: { type: "object", properties: {} },
    run: (services) => services.models.list(),
  },
  {
    name: "list_replicas",
    description: "Replicas, optionally of one model or on one node (llmgw ctl replicas list).",
    inputSchema: {
      type: "object",
      properties: { model: text("only this model"), node: text("only this node") },
    },
    run: (services, args) => services.replicas.list(replicaArgs.parse(args)),
  },
  {
    name: "explain_placement",
    description:
      "Why a model's replicas can or cannot go on each node (llmgw ctl explain-placement).",
    inputSchema: {
      type: "object",
      properties: { model: text("the model's name") },
      required: ["model"],
    },
    run: (services, args) => services.models.explainPlacement(modelArgs.parse(args).model),
  },
  {
    name: "node_logs",
    description: "The last lines of a node's agent log or one replica's engine (llmgw ctl logs).",
    inputSchema: {
      type: "object",
      properties: {
        node: text("the node's id or name"),
        source: text('"agent" (default) or a replica id'),
        lines: { type: "integer", minimum: 1, maximum: 2000, description: "how many lines" },
      },
      required: ["node"],
    },
    run: (services, args) => {
      const { node, source, lines } = logArgs.parse(args);
      return services.logs.get(node, source, lines);
    },
  },
];

/** Runs one admin tool; bad arguments come back as the tool's error, never a crash. */
export async function runAdminTool(
  services: ApiServices,
  name: string,
  args: Record<string, unknown>,
): Promise<{ content: Array<{ type: "text"; text: string }>; isError?: boolean }> {
  const tool = ADMIN_TOOLS.find((t) => t.name === name);
  if (!tool) return { content: [{ type: "text", text: `no tool ${name}` }], isError: true };
  try {
    const answer = await tool.run(services, args);
    return { content: [{ type: "text", text: JSON.stringify(answer, null, 2) }] };
  } catch (error) {
    const message =
      error instanceof z.ZodError
        ? error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ")
        : messageOf(error);
    return { content: [{ type: "text", text: message }], isError: true };
  }
}
