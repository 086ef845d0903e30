// The body of the console benchmark's stand-in thread (started by stand-ins-thread.ts): it connects
// every stand-in agent, a few at a time, and from then on they heartbeat from this thread's event
// loop, not from the one that drives Chromium. It reports progress, and every few seconds the
// longest stall of its own loop (a stall here is a heartbeat late at the server); "close" ends it.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";
import { startStandInAgent, type StandInAgent } from "../router/stand-in-agent";
import { eachAtOnce } from "../each-at-once";
import type { StandInsWork, StandInsReport } from "./stand-ins-thread";

const STALL_REPORT_INTERVAL_MS = 5_000;
const PROGRESS_EVERY = 250;

const work = workerData as StandInsWork;
const port = parentPort;
if (!port) throw new Error("stand-ins-worker.ts runs only as a worker thread");
const report = (message: StandInsReport) => port.postMessage(message);
const agents: StandInAgent[] = [];
const delay = monitorEventLoopDelay({ resolution: 20 });
delay.enable();
const stallReport = setInterval(() => {
  report({ kind: "stall", stallMs: delay.max / 1e6 });
  delay.reset();
}, STALL_REPORT_INTERVAL_MS);

port.on("message", (message) => {
  if (message !== "close") return;
  clearInterval(stallReport);
  delay.disable();
  for (const agent of agents) agent.close();
  port.close();
});

await eachAtOnce(work.nodes, work.atOnce, async (node) => {
  agents.push(
    await startStandInAgent({
      agentUrl: work.agentUrl,
      tls: node.tls,
      // The stand-in registers as `bench-<nodeName>`, the identity its certificate was issued to.
      nodeName: node.nodeId.replace(/^bench-/, ""),
      engines: new Map(),
      otherModelsPort: work.enginePort,
      cardCount: work.cardCount,
    }),
  );
  if (agents.length % PROGRESS_EVERY === 0) report({ kind: "connected", count: agents.length });
});
report({ kind: "done", count: agents.length });
