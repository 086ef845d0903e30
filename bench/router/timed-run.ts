// One run under load with what the target's and the client's processes spent over it: the
// target's CPU per answer, where its main thread's wall time went (running, waiting for a CPU,
// asleep), and the client side's CPU per answer. A gateway's main thread asleep while its
// connections are full of requests waits on something that is not its own CPU: the engine, the
// client, a timer or a lock; the client side's CPU says whether the other core set the pace.
import { cpuTimeMs, mainThreadNs } from "./cpu-time";
import { load, median, type Load, type Target, type ThreadShares } from "./measure";

/**
 * One run under load: timed when `durationS` is set, then a pause of `settleMs` while the target
 * finishes the requests the run's end cut; else one request per connection (the smoke).
 * `clientPids`: the processes of the client's side (the benchmark's own, the engine).
 */
export async function timedRun(
  target: Target,
  body: string,
  run: { connections: number; durationS: number; settleMs: number },
  clientPids: readonly number[],
): Promise<Load> {
  const { connections, durationS } = run;
  if (durationS === 0) return load(target, body, { connections, amount: connections });
  const cpuBeforeMs = cpuTimeMs(target.pid);
  const clientBeforeMs = clientCpuMs(clientPids);
  const threadBefore = mainThreadNs(target.pid);
  const wallBeforeNs = process.hrtime.bigint();
  const result = await load(target, body, { connections, durationS });
  await new Promise((resolve) => setTimeout(resolve, run.settleMs));
  const threadAfter = mainThreadNs(target.pid);
  const wallNs = Number(process.hrtime.bigint() - wallBeforeNs);
  const perAnswer = (before: number | null, after: number | null) =>
    before === null || after === null || result.answers === 0
      ? null
      : ((after - before) * 1000) / result.answers;
  const shares = (): ThreadShares | null => {
    if (!threadBefore || !threadAfter || wallNs <= 0) return null;
    const running = (threadAfter.runNs - threadBefore.runNs) / wallNs;
    const waiting = (threadAfter.waitNs - threadBefore.waitNs) / wallNs;
    return { running, waiting, idle: Math.max(0, 1 - running - waiting) };
  };
  return {
    ...result,
    cpuUsPerAnswer: perAnswer(cpuBeforeMs, cpuTimeMs(target.pid)),
    mainThread: shares(),
    clientCpuUsPerAnswer: perAnswer(clientBeforeMs, clientCpuMs(clientPids)),
  };
}

/** The CPU time of all of `pids` together, or null when one cannot be read. */
function clientCpuMs(pids: readonly number[]): number | null {
  let totalMs = 0;
  for (const pid of pids) {
    const ms = cpuTimeMs(pid);
    if (ms === null) return null;
    totalMs += ms;
  }
  return totalMs;
}

/** The median of the runs' figure, or null when no run could read it. */
export function medianOf(
  runs: readonly Load[],
  figure: (run: Load) => number | null,
): number | null {
  const read = runs.flatMap((run) => {
    const value = figure(run);
    return value === null ? [] : [value];
  });
  return read.length === 0 ? null : median(read);
}

/** The medians of the runs' main-thread shares, or null when no run could read them. */
export function threadMedians(runs: readonly Load[]): ThreadShares | null {
  const running = medianOf(runs, (run) => run.mainThread?.running ?? null);
  const waiting = medianOf(runs, (run) => run.mainThread?.waiting ?? null);
  const idle = medianOf(runs, (run) => run.mainThread?.idle ?? null);
  return running === null || waiting === null || idle === null ? null : { running, waiting, idle };
}
