// The console benchmark's stand-in agents on a worker thread of their own (stand-ins-worker.ts).
// At 2,000 nodes their heartbeats are a thousand sends a second; on the thread that also drives
// Chromium through Playwright, every stall of that loop (a burst of heartbeats, a collection) was
// added to a page's time between its content showing and the click on it being answered, which is
// the benchmark's own delay, not the console's. The thread shares the machine's cores all the same.
import { Worker } from "node:worker_threads";
import type { SimNode } from "../agents/fleet";

export interface StandInsWork {
  agentUrl: string;
  nodes: SimNode[];
  enginePort: number;
  cardCount: number;
  /** How many stand-ins connect at a time. */
  atOnce: number;
}

export type StandInsReport =
  | { kind: "connected"; count: number }
  | { kind: "done"; count: number }
  | { kind: "stall"; stallMs: number };

export interface StandInsThread {
  /** The longest stall of the stand-ins' loop reported since the last call, in ms. */
  takeStallMs(): number;
  close(): Promise<void>;
}

/**
 * tsx's loader does not reach a worker thread on this Node, so the worker registers it itself
 * before importing its body (a TypeScript file).
 */
function workerSource(): string {
  const tsx = import.meta.resolve("tsx/esm/api");
  const body = new URL("./stand-ins-worker.ts", import.meta.url).href;
  return `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(body)}); });`;
}

/** Starts the thread and resolves once every stand-in has connected. */
export async function startStandInsThread(
  work: StandInsWork,
  log: (line: string) => void,
): Promise<StandInsThread> {
  const worker = new Worker(workerSource(), { eval: true, workerData: work });
  let stallMs = 0;
  const connected = new Promise<void>((resolve, reject) => {
    worker.on("message", (report: StandInsReport) => {
      if (report.kind === "stall") stallMs = Math.max(stallMs, report.stallMs);
      else if (report.kind === "connected")
        log(`console bench: ${report.count} stand-in agents connected`);
      else resolve();
    });
    worker.on("error", (error) => {
      log(`console bench: the stand-in thread failed: ${String(error)}`);
      reject(error);
    });
    worker.once("exit", (code) =>
      reject(new Error(`the stand-in thread ended (exit ${code}) before every stand-in connected`)),
    );
  });
  const close = async () => {
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    worker.postMessage("close");
    // A thread that does not end on its own within a few seconds is stopped.
    const timer = setTimeout(() => void worker.terminate(), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await connected;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return {
    takeStallMs: () => {
      const longest = stallMs;
      stallMs = 0;
      return longest;
    },
    close,
  };
}
