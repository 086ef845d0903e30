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

/** Lines of a failed install's log shown under the table: enough to see the error. */
const FAILED_LOG_LINES = 5;

/** What the node offers, then the installs not ready yet with their state. */
function describeEngines(node: NodeView): string {
  const pending = node.engineInstalls
    .filter((install) => install.state !== "ready")
    .map((install) => `${install.engine} (${install.state})`);
  const names = [...node.engines, ...pending];
  return names.length === 0 ? "-" : names.join(", ");
}

/** Each failed install with its reason and last log lines, so the table is not the end of it. */
function failedInstalls(nodes: NodeView[]): string[] {
  return nodes.flatMap((node) =>
    node.engineInstalls
      .filter((install) => install.state === "failed")
      .flatMap((install) => [
        `${node.name}: ${install.engine} ${install.version} install failed: ${install.message}`,
        ...install.logTail.slice(-FAILED_LOG_LINES).map((line) => `  ${line}`),
      ]),
  );
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
    describeEngines(node),
    node.agentVersion,
    formatAge(node.lastSeenAt, nowMs),
  ]);
  const table = renderTable(
    [
      "NAME",
      "STATE",
      "LOCATION",
      "GPUS",
      "GPU MEMORY",
      "CPUS",
      "RAM",
      "ENGINES",
      "AGENT",
      "LAST SEEN",
    ],
    rows,
  );
  const failed = failedInstalls(nodes);
  return failed.length === 0 ? table : [table, "", ...failed].join("\n");
}

/** `--domain rack=r12`: only the nodes in that domain. */
export function nodesInDomain(nodes: NodeView[], domainText: string): NodeView[] {
  const parsed = parseDomain(domainText);
  if (!parsed.ok) throw new UsageError(parsed.error);
  return nodes.filter((node) => isInDomain(node.labels, parsed.domain));
}
