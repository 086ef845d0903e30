// What a heap snapshot says about where the memory goes: per constructor (DevTools' "Summary"),
// how many objects, their own size and what the outermost of them retain; then the objects that
// retain the most, each with its chain of dominators (who keeps it). Run on its own:
// `tsx memory/heap-top.ts FILE.heapsnapshot [--top 25]`.
import { parseArgs } from "node:util";
import { dominators, readHeapSnapshot, type HeapGraph } from "./heap-graph";

const MIB = 2 ** 20;
const PATH_DEPTH = 5;

/** DevTools' grouping: objects by constructor, the rest by kind. */
function classOf(g: HeapGraph, node: number): string {
  const type = g.nodeTypes[g.nodeType[node] as number] ?? "?";
  const name = g.strings[g.nodeName[node] as number] ?? "?";
  if (type === "object" || type === "native") return name || "(anonymous object)";
  if (type === "synthetic") return `(${name})`;
  if (type === "hidden") return "(system)";
  if (type === "code") return "(compiled code)";
  if (type === "closure") return "(closure)";
  return `(${type})`;
}

/** The name of the edge from `from` to `to`, when there is one. */
function edgeLabel(g: HeapGraph, from: number, to: number): string {
  for (let e = g.firstEdge[from] as number; e < (g.firstEdge[from + 1] as number); e += 1) {
    if (g.edgeTo[e] !== to) continue;
    const type = g.edgeTypes[g.edgeType[e] as number];
    const name = g.edgeName[e] as number;
    return type === "element" || type === "hidden" ? `[${name}]` : `.${g.strings[name] ?? "?"}`;
  }
  return " ⊃ ";
}

interface HeapSummary {
  totalMib: number;
  classes: Array<{ name: string; count: number; selfMib: number; retainedMib: number }>;
  objects: Array<{ name: string; retainedMib: number; path: string }>;
}

export function summarize(g: HeapGraph, top = 25): HeapSummary {
  const { idom, retained } = dominators(g);
  const byClass = new Map<string, { count: number; self: number; retained: number }>();
  let total = 0;
  for (let v = 0; v < g.nodeCount; v += 1) {
    total += g.selfSize[v] as number;
    const name = classOf(g, v);
    const row = byClass.get(name) ?? { count: 0, self: 0, retained: 0 };
    row.count += 1;
    row.self += g.selfSize[v] as number;
    const d = idom[v] as number;
    // Outermost instances only, so a class's nested objects are not counted twice.
    if (d < 0 || classOf(g, d) !== name) row.retained += retained[v] as number;
    byClass.set(name, row);
  }
  const classes = [...byClass]
    .map(([name, r]) => ({
      name,
      count: r.count,
      selfMib: r.self / MIB,
      retainedMib: r.retained / MIB,
    }))
    .sort((a, b) => b.selfMib - a.selfMib)
    .slice(0, top);
  // Objects (not the synthetic roots) by retained size, with who dominates them.
  const candidates: number[] = [];
  for (let v = 0; v < g.nodeCount; v += 1) {
    const type = g.nodeTypes[g.nodeType[v] as number];
    if (type === "object" || type === "closure" || type === "native" || type === "array")
      candidates.push(v);
  }
  candidates.sort((a, b) => (retained[b] as number) - (retained[a] as number));
  const objects = candidates.slice(0, top).map((v) => {
    const parts: string[] = [classOf(g, v)];
    let at = v;
    for (let depth = 0; depth < PATH_DEPTH; depth += 1) {
      const d = idom[at] as number;
      if (d <= 0) break;
      parts.unshift(`${classOf(g, d)}${edgeLabel(g, d, at)}`);
      at = d;
    }
    return {
      name: classOf(g, v),
      retainedMib: (retained[v] as number) / MIB,
      path: parts.join(" → "),
    };
  });
  return { totalMib: total / MIB, classes, objects };
}

export function summaryText(s: HeapSummary): string {
  const lines = [`heap snapshot: ${s.totalMib.toFixed(1)} MiB in objects`, "by constructor:"];
  lines.push("  self MiB  retained MiB     count  constructor");
  for (const c of s.classes)
    lines.push(
      `  ${c.selfMib.toFixed(1).padStart(8)}  ${c.retainedMib.toFixed(1).padStart(12)}  ${String(c.count).padStart(8)}  ${c.name}`,
    );
  lines.push("largest retainers:", "  retained MiB  dominator path");
  for (const o of s.objects) lines.push(`  ${o.retainedMib.toFixed(1).padStart(12)}  ${o.path}`);
  return lines.join("\n");
}

if (process.argv[1]?.endsWith("heap-top.ts")) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: "string", default: "25" } },
  });
  const path = positionals[0];
  if (!path) throw new Error("usage: tsx memory/heap-top.ts FILE.heapsnapshot [--top 25]");
  console.log(summaryText(summarize(readHeapSnapshot(path), Number(values.top))));
}
