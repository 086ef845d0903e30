// How replicas, cluster status (with free nodes per fabric and unasked-for models) and reclaim
// read in a terminal.
import type { ClusterStatus, ReclaimView, ReplicaView } from "@llmgw/api";
import { formatAge, formatBytes, renderTable, truncate, usageBar } from "../table";

function cardsOf(replica: ReplicaView): string {
  return replica.gpuIndexes.length > 0 ? replica.gpuIndexes.join(",") : "CPU";
}

function phaseOf(replica: ReplicaView): string {
  if (replica.phase === "fetching" && replica.fetchProgress !== null) {
    return `fetching ${Math.round(replica.fetchProgress * 100)}%`;
  }
  return replica.phase;
}

/**
 * One row per replica; a replica spanning nodes names its node count and lists its shards under
 * it, by rank, each with its node, cards and phase (only rank 0, the leader, serves the API).
 */
export function replicasTable(replicas: ReplicaView[], nowMs: number): string {
  const rows = replicas.flatMap((replica) => {
    const isSpanning = replica.shards.length > 0;
    const row = [
      replica.id,
      replica.model,
      isSpanning ? `${replica.shards.length} nodes` : replica.nodeName,
      isSpanning ? "-" : cardsOf(replica),
      phaseOf(replica),
      replica.endpoint ?? "-",
      replica.lastUsedAt ? formatAge(replica.lastUsedAt, nowMs) : "-",
    ];
    const shardRows = replica.shards.map((shard) => [
      `  rank ${shard.rank}`,
      shard.rank === 0 ? "leader" : "worker",
      shard.nodeName,
      shard.gpuIndexes.length > 0 ? shard.gpuIndexes.join(",") : "CPU",
      shard.phase,
      "",
      "",
    ]);
    return [row, ...shardRows];
  });
  return renderTable(["NAME", "MODEL", "NODE", "CARDS", "PHASE", "ENDPOINT", "LAST USED"], rows);
}

function capacityLines(status: ClusterStatus): string[] {
  if (status.capacity.length === 0) return ["  no GPUs in the fleet"];
  const width = Math.max(...status.capacity.map((row) => row.gpuClass.length));
  return status.capacity.map((row) => {
    const healthy = row.cardsTotal - row.cardsUnhealthy;
    const unhealthy =
      row.cardsUnhealthy > 0
        ? `  (${row.cardsUnhealthy} unhealthy, counted neither used nor free)`
        : "";
    return `  ${row.gpuClass.padEnd(width)}  ${usageBar(row.cardsUsed, healthy)}  ${row.cardsUsed}/${healthy}${unhealthy}`;
  });
}

function problemLines(status: ClusterStatus): string[] {
  const lines: string[] = [];
  if (status.parked.length > 0) {
    lines.push("", "parked (`llmgw ctl retry MODEL` tries again):");
    for (const parked of status.parked) lines.push(`  ${parked.model}: ${parked.lastError}`);
  }
  if (status.unplaceable.length > 0) {
    lines.push("", "cannot be placed (`llmgw ctl explain-placement MODEL` for every node):");
    for (const model of status.unplaceable) {
      lines.push(`  ${model.model}:`, ...model.reasons.map((reason) => `    - ${reason}`));
    }
  }
  return lines;
}

/** `ib-a  3  2 × 8 H100-80G, 1 × 2 H100-80G`: per fabric, its free nodes by card model. */
function fabricLines(status: ClusterStatus): string[] {
  if (status.freeWholeNodesByFabric.length === 0) return [];
  const names = status.freeWholeNodesByFabric.map((group) => group.fabric ?? "(no fabric)");
  const width = Math.max(...names.map((name) => name.length));
  return [
    "free whole nodes per fabric (llmgw.io/fabric):",
    ...status.freeWholeNodesByFabric.map((group, i) => {
      const models = group.byCardModel
        .map((entry) => `${entry.nodes} × ${entry.cardsPerNode} ${entry.cardModel}`)
        .join(", ");
      return `  ${(names[i] ?? "").padEnd(width)}  ${String(group.nodes).padStart(3)}  ${models}`;
    }),
  ];
}

function unaskedForLines(status: ClusterStatus): string[] {
  const heading = `unasked-for (ready, no request in ${status.unaskedForWindowHours} h)`;
  if (status.unaskedFor.length === 0) return ["", `${heading}: none`];
  const rows = status.unaskedFor.map((m) => [
    m.model,
    `${m.replicasReady} ready`,
    `${m.cardsHeld} ${m.cardsHeld === 1 ? "card" : "cards"}`,
  ]);
  const table = renderTable(["MODEL", "REPLICAS", "HOLDS"], rows).trimEnd().split("\n");
  return ["", `${heading}:`, ...table.map((line) => `  ${line}`)];
}

export function statusText(status: ClusterStatus): string {
  const unreachable = status.nodesUnreachable > 0 ? `, ${status.nodesUnreachable} unreachable` : "";
  const lines = [
    `nodes     ${status.nodesReady} ready${unreachable}`,
    `replicas  ${status.replicasReady}/${status.replicasDesired} ready`,
    `models    ${status.modelsReady}/${status.modelsTotal} ready`,
    "",
    "GPUs in use per class:",
    ...capacityLines(status),
    "",
    `free whole nodes: ${status.freeWholeNodes.length > 0 ? status.freeWholeNodes.join(", ") : "none"}`,
    ...fabricLines(status),
    ...unaskedForLines(status),
    ...problemLines(status),
  ];
  return `${lines.join("\n")}\n`;
}

function entryStatus(
  entry: ReclaimView["nodes"][number]["entries"][number],
  collect: boolean,
): string {
  if (entry.refused) return `refused: ${entry.refused}`;
  if (entry.removed) return "removed";
  return collect ? "kept" : "unused";
}

export function reclaimText(view: ReclaimView): string {
  const rows: string[][] = [];
  const errors: string[] = [];
  for (const node of view.nodes) {
    if (node.error) errors.push(`  ${node.node}: ${node.error}`);
    for (const entry of node.entries) {
      rows.push([
        node.node,
        entry.cacheName,
        truncate(entry.source, 60),
        formatBytes(entry.sizeBytes),
        entryStatus(entry, view.collect),
      ]);
    }
  }
  const total = view.nodes
    .flatMap((node) => node.entries)
    .reduce((sum, entry) => sum + entry.sizeBytes, 0);
  const freed = view.nodes.reduce((sum, node) => sum + node.bytesFreed, 0);
  const table =
    rows.length > 0
      ? renderTable(["NODE", "CACHE NAME", "SOURCE", "SIZE", "STATUS"], rows)
      : "no cached weights that the catalog does not want\n";
  const summary = view.collect
    ? `freed ${formatBytes(freed)}\n`
    : rows.length > 0
      ? `${formatBytes(total)} could be freed; run \`llmgw ctl reclaim --collect\` to delete them\n`
      : "";
  const failed = errors.length > 0 ? `nodes that did not answer:\n${errors.join("\n")}\n` : "";
  return table + summary + failed;
}
