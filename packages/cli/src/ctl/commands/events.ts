// `llmgw ctl events`: what happened in the fleet, newest first, filtered like the console's page;
// `events ack` acknowledges the warnings and errors shown so far.
import {
  EVENT_KINDS,
  EVENT_SEVERITIES,
  EVENT_SUBJECT_TYPES,
  type EventKind,
  type EventSeverity,
  type EventsListInput,
  type EventSubjectType,
  type EventView,
} from "@llmgw/api";
import { parseCountFlag, UsageError } from "../args";
import { renderTable } from "../table";
import { printJson, type Command, type CommandContext } from "./command";

const EVENTS_USAGE =
  "events [list] [--kind K,…] [--severity warning,error] [--subject node|model|replica|key|release[:ID]] [--limit N] [--json] | ack";

function listFlag<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
) {
  if (value === undefined) return undefined;
  const items = value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
  const unknown = items.filter((item) => !(allowed as readonly string[]).includes(item));
  if (unknown.length > 0)
    throw new UsageError(
      `--${flag} does not know ${unknown.map((u) => `"${u}"`).join(", ")}; it takes ${allowed.join(", ")}`,
    );
  return items as T[];
}

/** `model:sim-chat` → type and id; `node` alone → every node event. */
function subjectFlag(
  value: string | undefined,
): Pick<EventsListInput, "subjectType" | "subjectId"> {
  if (value === undefined) return {};
  const [type = "", ...rest] = value.split(":");
  const [subjectType] = listFlag<EventSubjectType>("subject", type, EVENT_SUBJECT_TYPES) ?? [];
  const id = rest.join(":");
  return { subjectType, ...(id ? { subjectId: id } : {}) };
}

export function eventsInput(values: CommandContext["values"]): EventsListInput {
  return {
    kinds: listFlag<EventKind>("kind", values.kind, EVENT_KINDS),
    severities: listFlag<EventSeverity>("severity", values.severity, EVENT_SEVERITIES),
    ...subjectFlag(values.subject),
    limit: parseCountFlag("limit", values.limit) ?? 50,
  };
}

export function eventsTable(events: readonly EventView[]): string {
  const rows = events.map((e) => [
    e.at,
    e.severity + (e.isAcknowledged || e.severity === "info" ? "" : " *"),
    e.kind,
    `${e.subjectType}:${e.subjectId}`,
    Object.entries(e.params)
      .filter(([, value]) => value !== null && value !== "")
      .map(([key, value]) => `${key}=${String(value)}`)
      .join(" "),
  ]);
  return renderTable(["TIME", "SEVERITY", "KIND", "SUBJECT", "DETAILS"], rows);
}

async function listEvents(ctx: CommandContext): Promise<number> {
  const page = await ctx.api.events.list.query(eventsInput(ctx.values));
  if (ctx.values.json) printJson(ctx, page);
  else if (page.events.length === 0) ctx.write("no events match\n");
  else {
    ctx.write(eventsTable(page.events));
    const attention = await ctx.api.events.attention.query();
    if (attention.count > 0)
      ctx.write(
        `\n${attention.count} warning(s) or error(s) marked * need attention; \`llmgw ctl events ack\` acknowledges them\n`,
      );
  }
  return 0;
}

async function acknowledge(ctx: CommandContext): Promise<number> {
  const attention = await ctx.api.events.attention.query();
  if (attention.newestId === null) {
    ctx.write("nothing needs attention\n");
    return 0;
  }
  const { acknowledged } = await ctx.api.events.acknowledge.mutate({
    upToId: attention.newestId,
  });
  if (ctx.values.json) printJson(ctx, { acknowledged });
  else ctx.write(`acknowledged ${acknowledged} event(s)\n`);
  return 0;
}

export const eventCommands: Record<string, Command> = {
  events: {
    usage: EVENTS_USAGE,
    summary: "fleet events, newest first (nodes, replicas, models, catalog, keys)",
    flags: ["kind", "severity", "subject", "limit", "json"],
    takesArguments: true,
    async run(ctx) {
      const [verb] = ctx.args;
      if (verb === undefined || verb === "list") return listEvents(ctx);
      if (verb === "ack") return acknowledge(ctx);
      throw new UsageError(`unknown events command "${verb}"; usage: ${EVENTS_USAGE}`);
    },
  },
};
