// The markdown this bench writes into docs/benchmarks.md: one row per fleet size, and the P7 bar
// row read at the largest size.
import type { Storm, Window } from "./measure";

const CPU_RATIO_BAR = 3;
const VISIBLE_BAR_MS = 200;

export interface SizeResult {
  agents: number;
  bare: Window;
  llmgw: Window;
  visibleMs: number[];
  storm: Storm;
  rssEndBytes: number;
}

export interface RunInfo {
  command: string;
  date: string;
  machine: string;
  loadAtEnd: string;
  seconds: number;
  /** A storm's dials begun per turn of the harness's event loop; 0: each when due. */
  dialsPerTurn: number;
}

const fixed = (value: number, digits: number) =>
  Number.isFinite(value) ? value.toFixed(digits) : "—";
const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)}`;

function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export function sizesTable(results: SizeResult[]): string {
  const rows = results.map((r) => {
    const ratio = r.llmgw.cpuMsPerFrame / r.bare.cpuMsPerFrame;
    return `| ${r.agents.toLocaleString("en-US")} | ${r.llmgw.frames.toLocaleString("en-US")} | ${fixed(r.llmgw.cpuMsPerFrame, 3)} | ${fixed(r.bare.cpuMsPerFrame, 3)} | ${fixed(ratio, 1)} × | ${fixed(quantile(r.visibleMs, 0.5), 0)} / ${fixed(quantile(r.visibleMs, 0.99), 0)} / ${fixed(Math.max(...r.visibleMs), 0)} | ${r.storm.registeredInDeadline} / ${r.storm.agents} in ${fixed(r.storm.lastRegisteredMs / 1000, 1)} s${r.storm.registeredInTheEnd < r.storm.agents ? ` (${r.storm.agents - r.storm.registeredInTheEnd} never)` : ""} | ${r.storm.readyInApi} | ${mib(r.llmgw.rssBytes)} | ${mib(r.rssEndBytes)} |`;
  });
  return [
    "| agents | heartbeats in window | llmgw CPU ms / frame | bare `ws` CPU ms / frame | ratio | visible in API ms (p50 / p99 / max) | registered again after the storm | ready in API after it | llmgw RSS MiB (steady) | (end) |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}

export function barsTable(largest: SizeResult): string {
  const ratio = largest.llmgw.cpuMsPerFrame / largest.bare.cpuMsPerFrame;
  const worstMs = Math.max(...largest.visibleMs);
  const storm = largest.storm;
  const isStormMet =
    storm.registeredInDeadline === storm.agents && storm.readyInApi === storm.agents;
  const met = (isMet: boolean) => (isMet ? "met" : "**not met**");
  return [
    "| bar | at | measured | |",
    "|---|---:|---|---|",
    `| P7: CPU per frame ≤ ${CPU_RATIO_BAR} × bare \`ws\` | ${largest.agents.toLocaleString("en-US")} agents | ${fixed(ratio, 1)} × | ${met(ratio <= CPU_RATIO_BAR)} |`,
    `| P7: heartbeat visible in the API within ${VISIBLE_BAR_MS} ms | ${largest.agents.toLocaleString("en-US")} agents | worst ${fixed(worstMs, 0)} ms of ${largest.visibleMs.length} | ${met(worstMs <= VISIBLE_BAR_MS)} |`,
    `| P7: reconnect storm of all in 10 s, none lost | ${largest.agents.toLocaleString("en-US")} agents | ${storm.registeredInDeadline} / ${storm.agents} in 10 s, ${storm.readyInApi} ready in the API | ${met(isStormMet)} |`,
  ].join("\n");
}

/** How the run paced its storm's dials (dial-pacer.ts), for the method paragraph. */
function pacing(dialsPerTurn: number): string {
  if (dialsPerTurn <= 0) return "in this run each storm dial started as soon as it came due";
  return `a storm dial that comes due waits for its turn: at most ${dialsPerTurn} start per turn of its event loop, and the handshakes under way are answered between turns (\`--dials-per-turn\`; the storm's clock runs from the cut, so that wait counts against the result)`;
}

export function agentsSection(results: SizeResult[], info: RunInfo): string {
  const largest = results.reduce((a, b) => (b.agents > a.agents ? b : a));
  return `## Agents at fleet size (P7)

Simulated agents against one control plane (\`bench/agents\`): a real \`llmgw server\` on PGlite in a
temp home, and N agents as sessions in the bench's one process. Each node joins through the join
route as a real agent does (its own key, a CSR, a certificate), then dials the agent port over mutual
TLS, sends a Register built from apps/agent's simulated H100 ×8 node and a Heartbeat every 2 s with
the simulation's moving card samples, as protobuf frames over real WebSockets; first beats are spread
over the interval. The baseline is a bare \`ws\` server with the same TLS (the server's certificate,
client certificates required) that reads each frame and discards it, fed the same agents' frames in
the same run. CPU is the server process's own (utime + stime from /proc) over a ${info.seconds} s
steady window, divided by the heartbeats sent in it. An agent whose dial fails (on a loaded machine
a handshake can miss the agent port's 10 s register window) dials again on its own after 0.5 s, for up
to 30 s, as a real agent would. *Visible in the API*: a sampled node that registered (the API shows
a live node from its registration until its batched write lands, so \`nodes.get\` knows it once
acknowledged; one not known within 10 s is a named error) gets a marked card-memory value in its next heartbeat, and \`nodes.get\` is polled every
10 ms until it shows it (the delay runs from the frame leaving the agent). *Storm*: every socket is
cut at once and every agent dials back as apps/agent does: after its jittered reconnect delay (0 to
0.5 s), giving up a dial whose opening handshake has not finished within 10 s, and after a failed
dial its backoff (full jitter, the ceiling doubling from 1 s); the agent
port runs at most 64 TLS handshakes at once and further connections wait their turn (closed after
6 s of waiting). Each agent keeps its TLS session and secure context as apps/agent does, so a
reconnect resumes its handshake. All agents share the harness's one thread; ${pacing(info.dialsPerTurn)}. The bench prints how many dials failed and why,
where the dials' time went (dial to open, open to RegisterAck), and the storm second by second:
the harness's dials, connects, handshakes and registrations, its event loop's longest hold and its
CPU, the agent port's accept queue, the server's CPU and how long its main thread waited for a core,
beside the server's own \`storm second\` log lines (connections accepted, handshakes started and
secured, in flight and waiting, its thread's longest hold and GC). An agent not back when the
storm's 40 s of dialing end counts as lost ("never" in the table). The servers run at the bench's
own scheduling priority (its autogroup's nice value). The per-address cap on unregistered sockets is raised to the fleet size, since
every simulated agent dials from 127.0.0.1.

Command (from the repository root): \`${info.command}\` (\`--agents 500,1000,2000\` runs each size on a
fresh server; \`--smoke\` runs 50 agents briefly and fails only on a wrong answer; \`--no-write\`
leaves this file alone).

Run on ${info.date}; ${info.machine}; load average ${info.loadAtEnd} at the end. The harness, its
2,000 TLS sessions and the server share the machine's cores, so the absolute figures are high; the
ratio compares both servers under the same harness.

${sizesTable(results)}

${barsTable(largest)}
`;
}
