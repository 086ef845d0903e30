// `llmgw ctl control-planes`: the control planes sharing the store, which one leads and for how
// long, their versions, and which have gone quiet (a process that died without saying so).
import type { ControlPlaneView } from "@llmgw/api";
import { renderTable } from "../table";
import { printJson, type Command, type CommandContext } from "./command";

/** "3 s", "4 min", "2 h": a lease age a person reads at a glance. */
function ageText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

export function controlPlanesTable(planes: readonly ControlPlaneView[]): string {
  const rows = planes.map((p) => [
    `${p.name}${p.isThis ? " (answered)" : ""}`,
    p.isLeader ? "leader" : p.isLive ? "standby" : "gone quiet",
    p.leaseAgeMs === null ? "-" : ageText(p.leaseAgeMs),
    p.version,
    p.apiUrl,
    p.lastSeenAt,
  ]);
  return renderTable(["NAME", "ROLE", "LEASE AGE", "VERSION", "API", "LAST SEEN"], rows);
}

async function controlPlanesCommand(ctx: CommandContext): Promise<number> {
  const planes = await ctx.api.controlPlanes.list.query();
  if (ctx.values.json) printJson(ctx, planes);
  else ctx.write(controlPlanesTable(planes));
  return 0;
}

export const controlPlaneCommands: Record<string, Command> = {
  "control-planes": {
    usage: "control-planes [--json]",
    summary: "the control planes on this store: the leader, its lease age, versions",
    flags: ["json"],
    run: controlPlanesCommand,
  },
};
