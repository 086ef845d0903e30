// A V8 heap snapshot (`.heapsnapshot`, the JSON that DevTools and the inspector's
// HeapProfiler.takeHeapSnapshot write) read into flat typed arrays, and the dominator tree that
// gives each object its retained size: what would be freed were that object gone. The file's
// number arrays are scanned byte by byte (a snapshot of a large heap is past what one JS string
// may hold); only its string table goes through JSON.parse.
import { readFileSync } from "node:fs";

export interface HeapGraph {
  nodeCount: number;
  /** Per node: its type (index into nodeTypes), name (index into strings), self size. */
  nodeType: Uint8Array;
  nodeName: Uint32Array;
  selfSize: Float64Array;
  /** Edges of node i are firstEdge[i] … firstEdge[i + 1] - 1. */
  firstEdge: Uint32Array;
  edgeType: Uint8Array;
  /** A string index for named edges, the element index for element and hidden ones. */
  edgeName: Uint32Array;
  edgeTo: Uint32Array;
  nodeTypes: string[];
  edgeTypes: string[];
  strings: string[];
}

interface Meta {
  node_fields: string[];
  node_types: [string[], ...unknown[]];
  edge_fields: string[];
  edge_types: [string[], ...unknown[]];
}

/** The unsigned integers of the JSON array that follows `"key":[` in `text`. */
function numbersAfter(text: Buffer, key: string, count: number): Float64Array {
  const start = text.indexOf(`"${key}":[`);
  if (start < 0) throw new Error(`the snapshot has no "${key}" array`);
  const out = new Float64Array(count);
  let at = start + key.length + 4;
  let n = 0;
  let value = 0;
  let inNumber = false;
  for (; at < text.length && n < count; at += 1) {
    const c = text[at] as number;
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      inNumber = true;
    } else if (inNumber) {
      out[n++] = value;
      value = 0;
      inNumber = false;
      if (c === 93) break; // "]"
    } else if (c === 93) break;
  }
  if (n < count) throw new Error(`"${key}" holds ${n} numbers, the meta says ${count}`);
  return out;
}

function stringsOf(text: Buffer): string[] {
  const start = text.indexOf('"strings":[');
  if (start < 0) throw new Error('the snapshot has no "strings" array');
  // The string table is the file's last member: from its "[" to the closing "}".
  const end = text.lastIndexOf("}");
  return JSON.parse(text.subarray(start + '"strings":'.length, end).toString("utf8")) as string[];
}

export function readHeapSnapshot(path: string): HeapGraph {
  const text = readFileSync(path);
  const head = text.subarray(0, Math.min(text.length, 64 * 1024)).toString("utf8");
  const metaMatch = /"snapshot":\{"meta":(\{.*?\}),"node_count":(\d+),"edge_count":(\d+)/s.exec(
    head,
  );
  if (!metaMatch?.[1]) throw new Error(`${path} is not a V8 heap snapshot`);
  const meta = JSON.parse(metaMatch[1]) as Meta;
  const nodeCount = Number(metaMatch[2]);
  const edgeCount = Number(metaMatch[3]);
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const field = (fields: string[], name: string) => {
    const at = fields.indexOf(name);
    if (at < 0) throw new Error(`the snapshot's fields lack ${name}`);
    return at;
  };
  const [nType, nName, nSelf, nEdges] = ["type", "name", "self_size", "edge_count"].map((f) =>
    field(meta.node_fields, f),
  ) as [number, number, number, number];
  const [eType, eName, eTo] = ["type", "name_or_index", "to_node"].map((f) =>
    field(meta.edge_fields, f),
  ) as [number, number, number];
  const nodes = numbersAfter(text, "nodes", nodeCount * nf);
  const edges = numbersAfter(text, "edges", edgeCount * ef);
  const graph: HeapGraph = {
    nodeCount,
    nodeType: new Uint8Array(nodeCount),
    nodeName: new Uint32Array(nodeCount),
    selfSize: new Float64Array(nodeCount),
    firstEdge: new Uint32Array(nodeCount + 1),
    edgeType: new Uint8Array(edgeCount),
    edgeName: new Uint32Array(edgeCount),
    edgeTo: new Uint32Array(edgeCount),
    nodeTypes: meta.node_types[0],
    edgeTypes: meta.edge_types[0],
    strings: stringsOf(text),
  };
  let edge = 0;
  for (let i = 0; i < nodeCount; i += 1) {
    graph.nodeType[i] = nodes[i * nf + nType] as number;
    graph.nodeName[i] = nodes[i * nf + nName] as number;
    graph.selfSize[i] = nodes[i * nf + nSelf] as number;
    graph.firstEdge[i] = edge;
    edge += nodes[i * nf + nEdges] as number;
  }
  graph.firstEdge[nodeCount] = edge;
  for (let e = 0; e < edgeCount; e += 1) {
    graph.edgeType[e] = edges[e * ef + eType] as number;
    graph.edgeName[e] = edges[e * ef + eName] as number;
    graph.edgeTo[e] = (edges[e * ef + eTo] as number) / nf;
  }
  return graph;
}

/**
 * Each node's immediate dominator and retained size, from the root (node 0) over every edge but
 * weak ones (Cooper, Harvey and Kennedy's iterative algorithm over a reverse postorder). Nodes the
 * root does not reach keep idom -1 and only their own size.
 */
export function dominators(g: HeapGraph): { idom: Int32Array; retained: Float64Array } {
  const n = g.nodeCount;
  const weak = g.edgeTypes.indexOf("weak");
  const order = new Int32Array(n).fill(-1); // postorder number
  const byOrder = new Int32Array(n);
  let count = 0;
  // Iterative depth-first search: a stack of nodes and the next edge each will follow.
  const stack = new Int32Array(n);
  const nextEdge = new Uint32Array(n);
  const seen = new Uint8Array(n);
  let top = 0;
  stack[0] = 0;
  nextEdge[0] = g.firstEdge[0] as number;
  seen[0] = 1;
  while (top >= 0) {
    const v = stack[top] as number;
    const e = nextEdge[v] as number;
    if (e < (g.firstEdge[v + 1] as number)) {
      nextEdge[v] = e + 1;
      const w = g.edgeTo[e] as number;
      if (g.edgeType[e] !== weak && !seen[w]) {
        seen[w] = 1;
        nextEdge[w] = g.firstEdge[w] as number;
        stack[++top] = w;
      }
    } else {
      order[v] = count;
      byOrder[count++] = v;
      top -= 1;
    }
  }
  // Predecessors of the reached nodes, as compressed rows.
  const predStart = new Uint32Array(n + 1);
  for (let v = 0; v < n; v += 1) {
    if ((order[v] as number) < 0) continue;
    for (let e = g.firstEdge[v] as number; e < (g.firstEdge[v + 1] as number); e += 1)
      if (g.edgeType[e] !== weak) {
        const w = (g.edgeTo[e] as number) + 1;
        predStart[w] = (predStart[w] as number) + 1;
      }
  }
  for (let v = 0; v < n; v += 1)
    predStart[v + 1] = (predStart[v + 1] as number) + (predStart[v] as number);
  const preds = new Uint32Array(predStart[n] as number);
  const fill = predStart.slice(0, n);
  for (let v = 0; v < n; v += 1) {
    if ((order[v] as number) < 0) continue;
    for (let e = g.firstEdge[v] as number; e < (g.firstEdge[v + 1] as number); e += 1)
      if (g.edgeType[e] !== weak) {
        const w = g.edgeTo[e] as number;
        const slot = fill[w] as number;
        preds[slot] = v;
        fill[w] = slot + 1;
      }
  }
  // idom over postorder numbers; the root is the last one.
  const root = count - 1;
  const idom = new Int32Array(count).fill(-1);
  idom[root] = root;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (a < b) a = idom[a] as number;
      while (b < a) b = idom[b] as number;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let o = root - 1; o >= 0; o -= 1) {
      const v = byOrder[o] as number;
      let next = -1;
      for (let p = predStart[v] as number; p < (predStart[v + 1] as number); p += 1) {
        const po = order[preds[p] as number] as number;
        if (po < 0 || idom[po] === -1) continue;
        next = next === -1 ? po : intersect(po, next);
      }
      if (next !== -1 && idom[o] !== next) {
        idom[o] = next;
        changed = true;
      }
    }
  }
  const retained = Float64Array.from(g.selfSize);
  const idomByNode = new Int32Array(n).fill(-1);
  // Postorder puts every node before its dominator, so one pass sums the subtrees.
  for (let o = 0; o < root; o += 1) {
    const v = byOrder[o] as number;
    const d = byOrder[idom[o] as number] as number;
    idomByNode[v] = d;
    retained[d] = (retained[d] as number) + (retained[v] as number);
  }
  return { idom: idomByNode, retained };
}
