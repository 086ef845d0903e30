// Peer clusters: add (the peer's key read from a file, sealed by the server), list with state,
// latency and models, sync their models now, remove. The key is never taken on the command line.
import type { FederationSyncResult, PeerView } from "@llmgw/api";
import { required, UsageError } from "../args";
import { readSecretFile } from "../secret-file";
import { renderTable } from "../table";
import { printJson, type Command, type CommandContext } from "./command";

const FEDERATION_USAGE =
  "federation add PEER --url URL --key-file F [--send-tags] | list [--json] | sync [PEER] [--json] | remove PEER";

function peersTable(peers: readonly PeerView[]): string {
  const rows = peers.map((peer) => [
    peer.name,
    peer.state,
    peer.latencyMs === null ? "-" : `${peer.latencyMs} ms`,
    peer.url,
    peer.models
      .map((model) => (model.isWithdrawn ? `${model.name} (withdrawn)` : model.name))
      .join(", ") || "-",
    peer.lastError ?? "",
  ]);
  return renderTable(["PEER", "STATE", "READY IN", "ADDRESS", "MODELS", "WHY DOWN"], rows);
}

function syncLine(result: FederationSyncResult): string {
  if (!result.ok) return `${result.peer}: sync failed: ${result.error ?? "?"}\n`;
  const parts = [
    result.added.length > 0 ? `added ${result.added.join(", ")}` : "",
    result.withdrawn.length > 0
      ? `withdrawn ${result.withdrawn.join(", ")} (a fallback still names them)`
      : "",
    result.removed.length > 0 ? `removed ${result.removed.join(", ")}` : "",
  ].filter(Boolean);
  return `${result.peer}: ${parts.length > 0 ? parts.join("; ") : "in step, nothing changed"}\n`;
}

async function addPeer(ctx: CommandContext, name: string): Promise<number> {
  const { url } = ctx.values;
  const keyFile = ctx.values["key-file"];
  if (!url)
    throw new UsageError(`--url is missing (the peer's base address); usage: ${FEDERATION_USAGE}`);
  if (!keyFile)
    throw new UsageError(
      `--key-file is missing (a file holding an API key of the peer); usage: ${FEDERATION_USAGE}`,
    );
  const view = await ctx.api.federation.add.mutate({
    name,
    url,
    key: readSecretFile("key-file", keyFile),
    sendsTags: ctx.values["send-tags"] === true,
  });
  if (ctx.values.json) printJson(ctx, view);
  else
    ctx.write(
      `peer ${view.name} added (${view.url}), ${view.state}, offering ${view.models.length} models as ${view.name}/MODEL${view.lastError ? `; ${view.lastError}` : ""}\n`,
    );
  return 0;
}

async function federationCommand(ctx: CommandContext): Promise<number> {
  const [verb, ...rest] = ctx.args;
  const name = () => required(rest, 0, "PEER", `federation ${verb ?? ""} PEER`);
  switch (verb) {
    case "list":
    case undefined: {
      const peers = await ctx.api.federation.list.query();
      if (ctx.values.json) printJson(ctx, peers);
      else
        ctx.write(
          peers.length === 0
            ? "no peer clusters yet; add one with `llmgw ctl federation add`\n"
            : peersTable(peers),
        );
      return 0;
    }
    case "add":
      return addPeer(ctx, name());
    case "sync": {
      const results = await ctx.api.federation.sync.mutate({ name: rest[0] });
      if (ctx.values.json) printJson(ctx, results);
      else ctx.write(results.map(syncLine).join("") || "no peer clusters to sync\n");
      return results.every((result) => result.ok) ? 0 : 1;
    }
    case "remove":
      await ctx.api.federation.remove.mutate({ name: name() });
      ctx.write(`peer ${rest[0]} removed; its models are no longer offered here\n`);
      return 0;
    default:
      throw new UsageError(`unknown federation command "${verb}"; usage: ${FEDERATION_USAGE}`);
  }
}

export const federationCommands: Record<string, Command> = {
  federation: {
    usage: FEDERATION_USAGE,
    summary: "peer clusters whose models are offered here as PEER/MODEL",
    flags: ["url", "key-file", "send-tags", "json"],
    takesArguments: true,
    run: federationCommand,
  },
};
