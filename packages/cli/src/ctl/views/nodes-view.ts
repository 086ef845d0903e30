// `llmgw ctl nodes`: the fleet as a table, or JSON for scripts.
import type { NodeView } from "@llmgw/api";
import { formatLocation, isInDomain, parseDomain } from "@llmgw/domain";
import { UsageError } from "../args";
import { formatAge, formatBytes, renderTable } from "../table";

function describeGpus(node: NodeView): string {
  if (node.gpus.length === 0) return "CPU only";
  const counts = new Map<string, number>();
  for (const gpu of node.gpus) counts.set(gpu.name, (counts.get(gpu.name) ?? 0) + 1);
  return [...counts].map(([name, count]) => `${count} x ${name}`).join(", ");
}

export function nodesTable(nodes: NodeView[], nowMs: number): string {
  const rows = nodes.map((node) => [
    node.name,
    node.state + (node.simulated ? " (simulated)" : "") + (node.cordon ? `, ${node.cordon}` : ""),
    formatLocation(node.labels),
    describeGpus(node),
    formatBytes(node.gpus.reduce((sum, gpu) => sum + gpu.memoryBytesTotal, 0) || null),
    String(node.cpu.cores),
    formatBytes(node.memory.bytesTotal),
    node.agentVersion,
    formatAge(node.lastSeenAt, nowMs),
  ]);
  return renderTable(
    ["NAME", "STATE", "LOCATION", "GPUS", "GPU MEMORY", "CPUS", "RAM", "AGENT", "LAST SEEN"],
    rows,
  );
}

/** `--domain rack=r12`: only the nodes in that domain. */
export function nodesInDomain(nodes: NodeView[], domainText: string): NodeView[] {
  const parsed = parseDomain(domainText);
  if (!parsed.ok) throw new UsageError(parsed.error);
  return nodes.filter((node) => isInDomain(node.labels, parsed.domain));
}
