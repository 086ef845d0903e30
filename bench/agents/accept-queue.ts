// The agent port's accept queue during a storm: connections the kernel has completed (the client
// already counts them as TCP connected) that the server has not accepted yet. `ss` reads the
// listening socket's Recv-Q (that queue's length) and Send-Q (its limit, the granted backlog).
// Sampled a few times a second without blocking the harness's thread; a sample still running when
// the next is due is not doubled.
import { execFile } from "node:child_process";

const SAMPLE_MS = 250;

interface AcceptQueueSample {
  /** Connections waiting to be accepted. */
  queued: number;
  /** The queue's limit as the kernel granted it. */
  backlog: number;
}

/** Parses `ss -ltnH` output for one listening port; undefined when no line is there. */
function parseListenLine(text: string): AcceptQueueSample | undefined {
  for (const line of text.split("\n")) {
    const fields = line.trim().split(/\s+/);
    // State Recv-Q Send-Q Local Peer
    if (fields[0] !== "LISTEN" || fields.length < 5) continue;
    const queued = Number(fields[1]);
    const backlog = Number(fields[2]);
    if (Number.isInteger(queued) && Number.isInteger(backlog)) return { queued, backlog };
  }
  return undefined;
}

/** Starts sampling `port`'s accept queue; each sample goes to `onSample`. Answers a stop function. */
export function sampleAcceptQueue(
  port: number,
  onSample: (sample: AcceptQueueSample) => void,
  everyMs = SAMPLE_MS,
): () => void {
  let isBusy = false;
  const timer = setInterval(() => {
    if (isBusy) return;
    isBusy = true;
    execFile("ss", ["-ltnH", `sport = :${port}`], (error, stdout) => {
      isBusy = false;
      const sample = error ? undefined : parseListenLine(stdout);
      if (sample) onSample(sample);
    });
  }, everyMs);
  return () => clearInterval(timer);
}
