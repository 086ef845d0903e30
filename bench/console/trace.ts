// Where one page's main thread goes, task by task (`--trace ROUTE`): a Chromium trace over one
// timed load, then the renderer main thread's long tasks on the page's clock, each with the trace
// events inside it that took the most time (inclusive: a Layout forced by a script counts under
// both). The JavaScript profile (`--profile`) names script functions only; this also shows the
// browser's own work (parsing, style, layout, paint, garbage collection) that it files as
// "(program)".
import type { Browser, Page } from "playwright-core";

const CATEGORIES = [
  "toplevel",
  "blink.user_timing",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
].join(",");
const TASK_NAMES = new Set(["RunTask", "ThreadControllerImpl::RunTask"]);

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { isLoadingMainFrame?: boolean; documentLoaderURL?: string } };
}

export async function startTrace(browser: Browser, page: Page): Promise<void> {
  await browser.startTracing(page, { categories: CATEGORIES.split(",") });
}

/** The renderer main thread with the most work: the page's. */
function mainThread(events: readonly TraceEvent[]): string | null {
  const mains = new Set(
    events
      .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const counts = new Map<string, number>();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ph === "X" && mains.has(thread)) counts.set(thread, (counts.get(thread) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** Stops the trace; the main thread's tasks of at least `longTaskMs`, on the page's clock. */
export async function stopTrace(browser: Browser, longTaskMs = 30): Promise<string[]> {
  const buffer = await browser.stopTracing();
  const { traceEvents: events } = JSON.parse(buffer.toString("utf8")) as {
    traceEvents: TraceEvent[];
  };
  const thread = mainThread(events);
  if (thread === null) return ["no renderer main thread in the trace"];
  const onThread = events
    .filter((e) => `${e.pid}:${e.tid}` === thread && e.ph === "X")
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const [pid] = thread.split(":");
  // The last main-frame navigation of the page's renderer: the page's zero.
  const starts = events.filter(
    (e) =>
      e.name === "navigationStart" &&
      String(e.pid) === pid &&
      e.args?.data?.isLoadingMainFrame === true &&
      (e.args.data.documentLoaderURL ?? "") !== "",
  );
  const zero = starts.at(-1)?.ts ?? onThread[0]?.ts ?? 0;
  const ms = (us: number) => (us / 1000).toFixed(0).padStart(6);
  // A task runs inside the scheduler's own task event: only the outermost of nested ones is kept.
  const tasks: TraceEvent[] = [];
  for (const e of onThread) {
    if (!TASK_NAMES.has(e.name) || (e.dur ?? 0) < longTaskMs * 1000 || e.ts < zero) continue;
    const outer = tasks.at(-1);
    if (outer && e.ts + (e.dur ?? 0) <= outer.ts + (outer.dur ?? 0) && e.ts >= outer.ts) continue;
    tasks.push(e);
  }
  const lines = [`${tasks.length} main-thread tasks of ${longTaskMs} ms or more:`];
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const inside = new Map<string, number>();
    for (const e of onThread) {
      if (e === task || TASK_NAMES.has(e.name) || e.ts < task.ts || e.ts >= end) continue;
      inside.set(e.name, (inside.get(e.name) ?? 0) + (e.dur ?? 0));
    }
    const top = [...inside]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([name, us]) => `${name} ${(us / 1000).toFixed(0)}`)
      .join(" · ");
    lines.push(
      `${ms(task.ts - zero)} → ${ms(end - zero)} ms (${ms(task.dur ?? 0).trim()} ms)  ${top}`,
    );
  }
  return lines;
}
