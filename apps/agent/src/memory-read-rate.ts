// The node's memory read rate, for the explorer's expected tokens per second on CPU (a token read
// on a CPU streams every active weight from memory once, so this rate sets the pace). Measured once,
// in the background after start: worker threads at the lowest priority each sum a buffer larger
// than the caches for a few hundred milliseconds, and their rates add up, as llama.cpp's threads'
// reads do.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { messageOf } from "@llmgw/domain";
import type { Logger } from "./log-ring";

export interface MemoryReadOptions {
  /** Each worker's buffer: larger than a core's share of the last-level cache. */
  bufferBytes: number;
  durationMs: number;
  workers: number;
}

/** 64 MiB a worker, up to 8 workers (512 MiB at most, held for well under a second). */
const DEFAULT_OPTIONS: MemoryReadOptions = {
  bufferBytes: 64 * 2 ** 20,
  durationMs: 300,
  workers: Math.min(availableParallelism(), 8),
};

/** When the probe runs: after start-up's own work, so it does not slow registering. */
const PROBE_DELAY_MS = 3_000;

// CommonJS, as an eval'd worker is. Four running sums keep the loop bound by reads, not additions;
// one untimed pass first lets V8 compile the loop, so the clock measures memory, not the interpreter.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
try { require("node:os").setPriority(19); } catch {}
const values = new Float64Array(workerData.bufferBytes / 8).fill(1);
function pass() {
  let a = 0, b = 0, c = 0, d = 0;
  for (let i = 0; i < values.length; i += 4) {
    a += values[i]; b += values[i + 1]; c += values[i + 2]; d += values[i + 3];
  }
  return a + b + c + d;
}
let sum = pass();
let passes = 0;
const startedAt = performance.now();
const deadline = startedAt + workerData.durationMs;
do {
  sum += pass();
  passes += 1;
} while (performance.now() < deadline);
const seconds = (performance.now() - startedAt) / 1000;
parentPort.postMessage({ bytesPerSecond: (passes * workerData.bufferBytes) / seconds, sum });
`;

function oneWorker(options: MemoryReadOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: options });
    worker.unref();
    worker.once("message", (answer: { bytesPerSecond: number }) => resolve(answer.bytesPerSecond));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the read worker exited with status ${code}`)));
  });
}

/** Bytes a second the node's cores read together, summed over `workers` threads. */
export async function measureMemoryReadRate(
  options: Partial<MemoryReadOptions> = {},
): Promise<number> {
  const settings = { ...DEFAULT_OPTIONS, ...options };
  const rates = await Promise.all(
    Array.from({ length: Math.max(1, settings.workers) }, () => oneWorker(settings)),
  );
  return rates.reduce((sum, rate) => sum + rate, 0);
}

export interface MemoryReadProbe {
  /** The measured rate; undefined until measured, or when measuring failed. */
  current(): number | undefined;
}

/** Measures once, `delayMs` after the call; a failure is logged and leaves the rate unknown. */
export function startMemoryReadProbe(
  logger: Logger,
  measure: () => Promise<number> = () => measureMemoryReadRate(),
  delayMs = PROBE_DELAY_MS,
): MemoryReadProbe {
  let rate: number | undefined;
  const timer = setTimeout(() => {
    measure().then(
      (measured) => {
        rate = measured;
        logger.info("memory read rate measured", { gbPerSecond: Math.round(measured / 1e8) / 10 });
      },
      (error: unknown) => logger.warn("memory read rate not measured", { why: messageOf(error) }),
    );
  }, delayMs);
  timer.unref();
  return { current: () => rate };
}
