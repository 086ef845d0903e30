// The router benchmark's results as markdown: what one request at a time costs, what each target
// sustains under load, and the P1–P5 bars beside what was measured in the same run.
import type { LoadSummary, RouterResults, RunInfo } from "./results";

export type { LoadSummary, RouterResults, RunInfo, SizeResult, TargetResult } from "./results";

/** P1–P5 in docs/goals.md, as numbers. */
const BARS = {
  addedP50MsMax: 0.5,
  addedP99MsMax: 1.5,
  addedVsPortkeyMax: 0.35,
  addedVsBareProxyMax: 1.1,
  saturatedVsDirectMin: 0.3,
  saturatedVsPortkeyMin: 5,
  slowVsDirectMin: 0.9,
  slowP99AddedMsMax: 10,
  ttftAddedMsMax: 1,
  streamsVsDirectMin: 0.5,
  checksOnVsOffMin: 0.85,
};

const ms = (value: number | undefined) =>
  value === undefined || Number.isNaN(value)
    ? "—"
    : value < 10
      ? value.toFixed(2)
      : value.toFixed(1);
const signedMs = (value: number) =>
  Number.isNaN(value) ? "—" : `${value >= 0 ? "+" : ""}${ms(value)}`;
const whole = (value: number | undefined) =>
  value === undefined ? "—" : Math.round(value).toLocaleString("en-US");
const times = (value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? "—" : `${value.toFixed(2)} ×`;

const byName = (results: RouterResults, name: string) =>
  results.targets.find((t) => t.name === name);

export function oneAtATimeTable(results: RouterResults): string {
  const direct = byName(results, "direct");
  const rows = results.targets.map((t) => {
    const cells = [
      t.name,
      ms(t.latencyP50Ms),
      ms(t.latencyP99Ms),
      t === direct ? "" : signedMs(t.addedP50Ms),
      t === direct ? "" : signedMs(t.addedP99Ms),
      ms(t.ttftP50Ms),
      t === direct ? "" : signedMs(t.ttftAddedP50Ms),
      t.eventCounts.join(", "),
    ];
    return `| ${cells.join(" | ")} |`;
  });
  return [
    "| one at a time (instant engine) | p50 ms | p99 ms | added p50 | added p99 | first byte of a stream, p50 ms | added | SSE events per stream |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}

export function underLoadTable(results: RouterResults): string {
  const cell = (load: LoadSummary | undefined, isDirect: boolean) =>
    load ? `${whole(load.rps)}${isDirect ? "" : ` (${times(load.vsDirect)})`}` : "—";
  const rows = results.targets.map((t) => {
    const isDirect = t.name === "direct";
    const errors = (t.saturated?.errors ?? 0) + (t.slow?.errors ?? 0) + (t.streams?.errors ?? 0);
    const cells = [
      t.name,
      cell(t.saturated, isDirect),
      ms(t.saturated?.p99Ms),
      cell(t.slow, isDirect),
      ms(t.slow?.p99Ms),
      cell(t.streams, isDirect),
      String(errors),
    ];
    return `| ${cells.join(" | ")} |`;
  });
  rows.push(
    `| llmgw, checks off | ${whole(results.checksOff.rps)} (${times(results.checksOff.vsDirect)}) | ${ms(results.checksOff.p99Ms)} | | | | ${results.checksOff.errors} |`,
    `| bare server (the load generator's yardstick) | ${whole(results.bareServer.rps)} (${times(results.bareServer.vsDirect)}) | ${ms(results.bareServer.p99Ms)} | | | | ${results.bareServer.errors} |`,
  );
  return [
    "| under load | instant engine, 50 conns: req/s (× direct) | p99 ms | 20 ms engine, 50 conns: req/s (× direct) | p99 ms | streams/s, 200 conns (× direct) | errors |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}

/**
 * CPU per answer of each target's own process under load (the engine's for direct): what the
 * req/s ratios come from on a machine whose cores are shared, and steadier than they are.
 */
export function cpuTable(results: RouterResults): string {
  const us = (load: LoadSummary | undefined) =>
    load?.cpuUsPerAnswer === null || load?.cpuUsPerAnswer === undefined
      ? "—"
      : whole(load.cpuUsPerAnswer);
  const rows = results.targets.map(
    (t) => `| ${t.name} | ${us(t.saturated)} | ${us(t.slow)} | ${us(t.streams)} |`,
  );
  rows.push(
    `| llmgw, checks off | ${us(results.checksOff)} | | |`,
    `| bare server | ${us(results.bareServer)} | | |`,
  );
  return [
    "| CPU per answer, µs (the target's own process; the engine's for direct) | instant engine, 50 conns | 20 ms engine, 50 conns | streams, 200 conns |",
    "|---|---:|---:|---:|",
    ...rows,
  ].join("\n");
}

/**
 * Where each target's main thread spent the wall time of its runs under load, and what the
 * client's side (load generator and engine, on the other core) spent per answer meanwhile.
 */
export function threadTable(results: RouterResults): string {
  const pct = (share: number | undefined) =>
    share === undefined ? "—" : `${Math.round(share * 100)} %`;
  const cells = (load: LoadSummary | undefined) => [
    pct(load?.mainThread?.running),
    pct(load?.mainThread?.waiting),
    pct(load?.mainThread?.idle),
    load?.clientCpuUsPerAnswer === null || load?.clientCpuUsPerAnswer === undefined
      ? "—"
      : whole(load.clientCpuUsPerAnswer),
  ];
  const row = (name: string, saturated?: LoadSummary, slow?: LoadSummary) =>
    `| ${[name, ...cells(saturated), ...cells(slow)].join(" | ")} |`;
  return [
    "| main thread of the target (the engine's for direct) | instant engine: running | waiting for a CPU | asleep | client side, CPU µs per answer | 20 ms engine: running | waiting for a CPU | asleep | client side, CPU µs per answer |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...results.targets.map((t) => row(t.name, t.saturated, t.slow)),
    row("llmgw, checks off", results.checksOff),
    row("bare server", results.bareServer),
  ].join("\n");
}

export function sizeTable(results: RouterResults): string {
  const rows = results.sizes.map((size) => {
    const cells = [
      size.others.toLocaleString("en-US"),
      ms(size.directP50Ms),
      ms(size.llmgwP50Ms),
      signedMs(size.llmgwP50Ms - size.directP50Ms),
      ms(size.directP99Ms),
      ms(size.llmgwP99Ms),
      signedMs(size.llmgwP99Ms - size.directP99Ms),
      size.loopDelay ? ms(size.loopDelay.p99Ms) : "—",
      size.loopDelay ? ms(size.loopDelay.maxMs) : "—",
    ];
    return `| ${cells.join(" | ")} |`;
  });
  return [
    "| replicas of other models in llmgw's book | direct p50 ms | llmgw p50 ms | added p50 | direct p99 ms | llmgw p99 ms | added p99 | llmgw event-loop delay p99 ms | max ms |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}

const verdict = (isMet: boolean) => (isMet ? "met" : "**not met**");

export function barsTable(results: RouterResults): string {
  const direct = byName(results, "direct");
  const llmgw = byName(results, "llmgw");
  const portkey = byName(results, "Portkey");
  const bare = byName(results, "bare proxy");
  if (!direct || !llmgw) return "";
  const addedP50 = llmgw.addedP50Ms;
  const addedP99 = llmgw.addedP99Ms;
  const portkeyAdded = portkey ? portkey.addedP50Ms : Number.NaN;
  const bareAdded = bare ? bare.addedP50Ms : Number.NaN;
  const ttftAdded = llmgw.ttftAddedP50Ms;
  const saturatedVsPortkey =
    llmgw.saturated && portkey?.saturated
      ? llmgw.saturated.rps / portkey.saturated.rps
      : Number.NaN;
  const slowP99Added =
    llmgw.slow && direct.slow ? llmgw.slow.p99Ms - direct.slow.p99Ms : Number.NaN;
  const sameEvents =
    llmgw.eventCounts.length === 1 &&
    direct.eventCounts.length === 1 &&
    llmgw.eventCounts[0] === direct.eventCounts[0];
  const lines: Array<[string, string, string, boolean]> = [
    [
      "P1 added latency, p50",
      `≤ ${BARS.addedP50MsMax} ms`,
      `${signedMs(addedP50)} ms`,
      addedP50 <= BARS.addedP50MsMax,
    ],
    [
      "P1 added latency, p99",
      `≤ ${BARS.addedP99MsMax} ms`,
      `${signedMs(addedP99)} ms`,
      addedP99 <= BARS.addedP99MsMax,
    ],
    [
      "P1 added p50, × the bare proxy's added p50",
      `≤ ${BARS.addedVsBareProxyMax} ×`,
      times(addedP50 / bareAdded),
      // A bare proxy that added nothing (or less than nothing) leaves no ratio to meet.
      bareAdded > 0 && addedP50 / bareAdded <= BARS.addedVsBareProxyMax,
    ],
    [
      "P1 added p50, × Portkey's added p50",
      `≤ ${BARS.addedVsPortkeyMax} ×`,
      times(addedP50 / portkeyAdded),
      addedP50 / portkeyAdded <= BARS.addedVsPortkeyMax,
    ],
    [
      "P2 saturated req/s, × direct",
      `≥ ${BARS.saturatedVsDirectMin} ×`,
      times(llmgw.saturated?.vsDirect),
      (llmgw.saturated?.vsDirect ?? 0) >= BARS.saturatedVsDirectMin,
    ],
    [
      "P2 saturated req/s, × Portkey",
      `≥ ${BARS.saturatedVsPortkeyMin} ×`,
      times(saturatedVsPortkey),
      saturatedVsPortkey >= BARS.saturatedVsPortkeyMin,
    ],
    [
      "P3 20 ms engine req/s, × direct",
      `≥ ${BARS.slowVsDirectMin} ×`,
      times(llmgw.slow?.vsDirect),
      (llmgw.slow?.vsDirect ?? 0) >= BARS.slowVsDirectMin,
    ],
    [
      "P3 p99, added to direct's",
      `≤ ${BARS.slowP99AddedMsMax} ms`,
      `${signedMs(slowP99Added)} ms`,
      slowP99Added <= BARS.slowP99AddedMsMax,
    ],
    [
      "P4 added time to first byte, p50",
      `≤ ${BARS.ttftAddedMsMax} ms`,
      `${signedMs(ttftAdded)} ms`,
      ttftAdded <= BARS.ttftAddedMsMax,
    ],
    [
      "P4 SSE events per stream",
      "same as direct",
      `${llmgw.eventCounts.join(", ")} (direct ${direct.eventCounts.join(", ")})`,
      sameEvents,
    ],
    [
      "P4 streams/s at 200 conns, × direct",
      `≥ ${BARS.streamsVsDirectMin} ×`,
      times(llmgw.streams?.vsDirect),
      (llmgw.streams?.vsDirect ?? 0) >= BARS.streamsVsDirectMin,
    ],
    [
      "P5 req/s with auth, limits, accounting on, × off",
      `≥ ${BARS.checksOnVsOffMin} ×`,
      times(results.checksOnVsOff),
      results.checksOnVsOff >= BARS.checksOnVsOffMin,
    ],
  ];
  return [
    "| bar | target | measured (medians) | |",
    "|---|---:|---:|---|",
    ...lines.map(
      ([what, target, got, isMet]) => `| ${what} | ${target} | ${got} | ${verdict(isMet)} |`,
    ),
  ].join("\n");
}

export function routerSection(results: RouterResults, info: RunInfo): string {
  return [
    "## Router (P1–P5)",
    "",
    "The `/v1` gateway against the same engine reached directly, a bare proxy and Portkey's gateway,",
    "side by side in one run on loopback (`bench/router/`). The engine (`bench/router/engine.ts`) answers",
    "an OpenAI chat completion from memory, at once or after 20 ms; a stream is 19 SSE events (role, 16",
    "tokens, usage, `[DONE]`), one write each. Targets, all in their own processes:",
    "",
    "- **direct**: the engine itself.",
    "- **llmgw**: a real `llmgw server` (PGlite) with an API key whose limits (rpm, tpm, concurrency) are",
    "  checked on every request but set too high to refuse, least in-flight routing, usage recorded in",
    "  batches. Its replicas are placed by the real reconciler on a stand-in agent",
    "  (`bench/router/stand-in-agent.ts`) that speaks the agent protocol and reports the benchmark's engine",
    "  as the replica's address, so the gateway and the direct column hit the very same process.",
    "- **llmgw, checks off** (P5 only): a second server with `LLMGW_GATEWAY_CHECKS=off`, a switch that exists",
    "  for this comparison: `/v1` then takes any bearer token as an open key, applies no limits and records",
    "  no usage; routing and forwarding are unchanged. The server refuses it unless bound to loopback.",
    "- **bare proxy**: the anchor, about 40 lines of undici `request` piped back (`bench/router/bare-proxy.ts`).",
    "- **bare server** (under load, instant scenario only): the load generator's yardstick, a Node http server",
    "  answering a fixed 28-byte body (`bench/router/bare-server.ts`). Nothing can be faster; a direct figure",
    "  close to it means the client, not the engine, set the pace, and ratios to direct then flatter everyone.",
    `- **Portkey**: \`@portkey-ai/gateway\` ${info.portkeyVersion} from npm (\`build/start-server.js --headless\`,`,
    "  `NODE_ENV=production`), sent to the engine as an OpenAI provider with",
    "  `x-portkey-custom-host: http://127.0.0.1:PORT/v1`. As npm installs it, every stream fails on Node",
    '  with `TypeError: immutable` (500 "Something went wrong"): @hono/node-server, which it pulls in',
    "  at 1.19, replaces the global `Response` with a class that hands back the upstream's immutable",
    "  headers, and Portkey appends its own (Portkey-AI/gateway#1389, #1550). `bench/router/portkey.ts`",
    "  starts it unchanged and then puts Node's own `Response` back, which is what makes its streams work;",
    "  plain answers work either way.",
    "",
    `Command (from the repository root): \`${info.command}\` (\`npm run bench:router\`; \`--smoke\` runs each`,
    "part once, briefly, and fails only on a wrong or failed answer, never on timing; `--quick` runs the",
    "whole method with 1–2 s runs and 200 other replicas, to try the benchmark, and writes nothing;",
    "`--others N` sets the size axis's replicas of other models, e.g. `--quick --others 4000`;",
    "`--cpu-prof DIR` has the llmgw with checks on write a V8 CPU profile of its whole run into DIR;",
    "`--from release|checkout` starts both llmgw servers from a release built first (the default) or from",
    "the checkout through tsx, `--release DIR` from an unpacked release already built;",
    "`--no-write` leaves this file alone).",
    "",
    `Run on ${info.date}; ${info.machine}. ${info.llmgwFrom} The load generator (autocannon ${info.autocannonVersion}) runs in a worker`,
    `thread of the benchmark's process, apart from its main thread. ${info.cores} Ratios, taken`,
    "round by round against direct, mean more than absolute numbers. One at a time: " +
      `${results.oneAtATimeCount.toLocaleString("en-US")} requests and ${results.streamCount.toLocaleString("en-US")} streams per gateway, each gateway taking turns with direct alone, request by request,`,
    `after ${results.pairWarmup.toLocaleString("en-US")} unrecorded pairs each (V8 optimises a process's code over its first few thousand requests: until session 14 the first 100 pairs were unrecorded and P1's p99 measured that warm-up too), in blocks of ${results.pairBlock} pairs that the gateways take in turn until each has its count (the first ${results.pairBlockWarmup} pairs of a block not recorded: the gateway's first requests after the others'); a gateway's added latency is over direct's requests in its own pairs, and direct's row is all of them. Between two of a gateway's requests only direct's turn passes, as in the size axis below; until session 13 all four took turns, so each gateway's core ran the two other gateways' requests (about 3 ms) between two of its own and each request then cost its gateway 1.2 to 1.6 × the CPU (session 13's sub-section below). Under load: a first run of ${results.warmupS} s against each target warms it up and is not counted; then ${results.rounds} rounds, targets in turn, each run lasting ${results.durationS} s (stopped at the first tick of autocannon's 100 ms sampling interval after that). A run's end cuts the request each connection still has in flight: those are counted nowhere (not in req/s, latency or errors), so req/s is answers read to the end over the run's time and reads low by at most connections ÷ answers. A ratio therefore reads high by at most its base's share: a run of direct (or of checks off, P5's base) with fewer than ${results.answersPerConnectionMin} answers per connection (the cut ones then over ${Math.round(100 / Math.max(1, results.answersPerConnectionMin))} % of its work) fails the benchmark; any other run that short is listed below the tables with how far it may read low, which can hide a met bar but not claim one (a short Portkey run flatters the ratios against it by as much). The target finishes the cut requests (llmgw records them as 499, clients gone) in a pause of ${results.settleMs} ms before the next run. Medians of the rounds; ratios are the medians of each round's own ratio.`,
    "",
    oneAtATimeTable(results),
    "",
    underLoadTable(results),
    "",
    "CPU time of each target's process (user and system, from `/proc/PID/stat`, clock ticks of 10 ms)",
    "over each timed run and its settling pause, per answer counted; medians of the rounds.",
    "",
    cpuTable(results),
    "",
    "Where each target's main thread spent the wall time of the same runs (its running and run-queue",
    "time from `/proc/PID/task/PID/schedstat`; asleep is the rest: its event loop waiting on sockets and",
    "timers with nothing to run), and the CPU the client's side (the benchmark's process with the load",
    "generator, and the scenario's engine, both on the other core) spent per answer; medians of the rounds.",
    "",
    threadTable(results),
    "",
    "Size axis: the same instant engine behind the same llmgw, first with only the benchmark's replicas,",
    `then with ${(results.sizes[1]?.others ?? 0).toLocaleString("en-US")} ready replicas of other models (80 a model) placed by its reconciler on`,
    "stand-in nodes of 250 simulated cards and reported at an engine of their own; direct and llmgw",
    "take turns one request at a time at each size. Those nodes heartbeat as agents do, so the larger",
    "fleet's own upkeep is in the second row too. The event-loop delay is the llmgw server's own, over",
    "each row's run: how long its one thread was held by other work (prom-client's",
    "monitorEventLoopDelay read from its /metrics before and after, the 10 ms resolution taken off).",
    "",
    sizeTable(results),
    "",
    barsTable(results),
    "",
    ...shortRunLines(results),
  ].join("\n");
}

/** The runs too short to bound their cut requests under 5 %, each with how far it may read. */
function shortRunLines(results: RouterResults): string[] {
  if (results.shortRuns.length === 0) return [];
  return [
    `Runs with fewer than ${results.answersPerConnectionMin} answers per connection (not bases, so not refused):`,
    "",
    ...results.shortRuns.map((line) => `- ${line}`),
    "",
  ];
}
