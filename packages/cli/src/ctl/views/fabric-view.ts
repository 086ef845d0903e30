// How `llmgw ctl fabric-test A B` reads in a terminal: one aligned row per rail, then what to do
// for each rail that was not ok.
import type { FabricTestView } from "@llmgw/api";
import { renderTable } from "../table";

const gbps = (value: number | null) => (value === null ? "-" : value.toFixed(1));

export function fabricText(view: FabricTestView): string {
  const rows = view.rails.map((rail) => [
    String(rail.rail),
    rail.status.toUpperCase(),
    `${rail.clientAdapter} → ${rail.serverAdapter}`,
    rail.linkGbps > 0 ? rail.linkGbps.toFixed(0) : "?",
    gbps(rail.averageGbps),
    gbps(rail.peakGbps),
    rail.summary,
  ]);
  const todo = view.rails
    .filter((rail) => rail.status !== "ok" && rail.fix !== "")
    .map((rail) => `  rail ${rail.rail}: ${rail.fix}`);
  const counts = (["ok", "slow", "failed"] as const)
    .map((status) => `${view.rails.filter((rail) => rail.status === status).length} ${status}`)
    .join(", ");
  return [
    `${view.clientNode} → ${view.serverNode}, ${view.seconds} s per rail: ${counts}\n`,
    renderTable(
      ["RAIL", "STATUS", "ADAPTERS", "LINK Gb/s", "AVG Gb/s", "PEAK Gb/s", "FOUND"],
      rows,
    ),
    todo.length === 0 ? "" : `\nwhat to do:\n${todo.join("\n")}\n`,
  ].join("");
}
