// The mirrors of the server's settings: list with state, last check, latency and which catalog
// files each holds; remove a file from one (refused by the server while a catalog model loads it).
import type { MirrorView } from "@llmgw/api";
import { required, UsageError } from "../args";
import { renderTable } from "../table";
import { printJson, type Command, type CommandContext } from "./command";

const MIRROR_USAGE = "mirror [list] [--json] | rm MIRROR PATH";

/** `org/m.gguf (qwen)`, with `missing` when the mirror answered that it does not hold it. */
function holdings(mirror: MirrorView): string {
  const held = mirror.files.filter((file) => file.isHeld === true);
  const missing = mirror.files.filter((file) => file.isHeld === false);
  const describe = (file: MirrorView["files"][number]) =>
    `${file.path} (${file.models.join(", ")})`;
  return [...held.map(describe), ...missing.map((file) => `missing: ${describe(file)}`)].join(", ");
}

function mirrorsTable(mirrors: readonly MirrorView[]): string {
  const rows = mirrors.map((mirror) => [
    mirror.isPrimary ? `${mirror.name} (primary)` : mirror.name,
    mirror.state,
    mirror.checkedAt ?? "-",
    mirror.latencyMs === null ? "-" : `${mirror.latencyMs} ms`,
    mirror.baseUrl,
    holdings(mirror) || "-",
    mirror.lastError ?? "",
  ]);
  return renderTable(
    ["MIRROR", "STATE", "CHECKED", "LATENCY", "ADDRESS", "HOLDS FOR THE CATALOG", "WHY DOWN"],
    rows,
  );
}

async function mirrorCommand(ctx: CommandContext): Promise<number> {
  const [verb, ...rest] = ctx.args;
  switch (verb) {
    case "list":
    case undefined: {
      const mirrors = await ctx.api.mirrors.list.query();
      if (ctx.values.json) printJson(ctx, mirrors);
      else
        ctx.write(
          mirrors.length === 0
            ? "no mirrors; name them in the server's LLMGW_MIRRORS (docs/mirrors.md)\n"
            : mirrorsTable(mirrors),
        );
      return 0;
    }
    case "rm": {
      const mirror = required(rest, 0, "MIRROR", "mirror rm MIRROR PATH");
      const path = required(rest, 1, "PATH", "mirror rm MIRROR PATH");
      const removed = await ctx.api.mirrors.remove.mutate({ mirror, path });
      ctx.write(`${removed.path} removed from mirror ${removed.mirror}\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown mirror command "${verb}"; usage: ${MIRROR_USAGE}`);
  }
}

export const mirrorCommands: Record<string, Command> = {
  mirror: {
    usage: MIRROR_USAGE,
    summary: "the mirrors nodes fetch mirror:PATH sources from, their state and what they hold",
    flags: ["json"],
    takesArguments: true,
    run: mirrorCommand,
  },
};
