// Reads a V8 `.cpuprofile` (node --cpu-prof) and prints where the time went: the top functions by
// self time and by inclusive time, and busy time per second so the bench's phases (joins, steady
// windows, the storm) can be told apart and read one at a time with --from/--to (seconds from the
// profile's start).
// `tsx agents/profile-top.ts FILE.cpuprofile [--from 40] [--to 52] [--top 25]`
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const IDLE = new Set(["(idle)", "(program)", "(garbage collector)"]);

function label(frame: CallFrame): string {
  const file = frame.url.replace(/^file:\/\//, "").replace(/^.*node_modules\//, "~/");
  const short = file.split("/").slice(-3).join("/");
  return `${frame.functionName || "(anonymous)"} ${short}:${frame.lineNumber + 1}`;
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      from: { type: "string", default: "0" },
      to: { type: "string", default: "Infinity" },
      top: { type: "string", default: "25" },
    },
  });
  const path = positionals[0];
  if (!path) throw new Error("name a .cpuprofile file");
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  const fromUs = Number(values.from) * 1e6;
  const toUs = Number(values.to) * 1e6;
  const top = Number(values.top);

  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);

  const selfUs = new Map<string, number>();
  const inclusiveUs = new Map<string, number>();
  const busyPerSecond: number[] = [];
  let atUs = 0;
  let totalUs = 0;
  let idleUs = 0;
  for (const [index, sample] of profile.samples.entries()) {
    const deltaUs = profile.timeDeltas[index] ?? 0;
    atUs += deltaUs;
    const node = byId.get(sample);
    if (!node) continue;
    const name = node.callFrame.functionName;
    const second = Math.floor(atUs / 1e6);
    if (!IDLE.has(name) || name === "(garbage collector)")
      busyPerSecond[second] = (busyPerSecond[second] ?? 0) + deltaUs;
    if (atUs < fromUs || atUs > toUs) continue;
    totalUs += deltaUs;
    if (name === "(idle)") idleUs += deltaUs;
    const own = label(node.callFrame);
    selfUs.set(own, (selfUs.get(own) ?? 0) + deltaUs);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      if (!frame || frame.functionName === "(root)") continue;
      const key = label(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusiveUs.set(key, (inclusiveUs.get(key) ?? 0) + deltaUs);
    }
  }

  const ms = (us: number) => (us / 1000).toFixed(0).padStart(7);
  const pct = (us: number) => ((100 * us) / Math.max(1, totalUs - idleUs)).toFixed(1).padStart(5);
  const print = (title: string, table: Map<string, number>) => {
    console.log(`\n${title} (ms, % of busy time; idle left out)`);
    const rows = [...table].filter(([key]) => !key.startsWith("(idle)"));
    for (const [key, us] of rows.sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${ms(us)} ${pct(us)}%  ${key}`);
  };
  console.log(
    `window ${values.from}–${values.to} s: ${ms(totalUs)} ms sampled, ${ms(totalUs - idleUs)} ms busy`,
  );
  console.log(
    `busy ms per second: ${Array.from(busyPerSecond, (us, s) => `${s}:${Math.round((us ?? 0) / 1000)}`).join(" ")}`,
  );
  print("self", selfUs);
  print("inclusive", inclusiveUs);
}

main();
