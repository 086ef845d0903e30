// Where an update's time goes (`--trace`): Chromium's timeline trace over a few component updates,
// the renderer's main-thread and compositor events summed by name and divided by the updates.
// Update-to-paint is more than the page's JavaScript (style, layout, paint, raster and compositing
// of the canvas are the browser's), and this says which part is the largest. Never written.
import type { Page } from "playwright-core";

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  tid: number;
  pid: number;
}

const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "blink",
  "cc",
  "gpu",
  "viz",
].join(",");
const SHOWN = 30;

/** Runs `work` under the tracer; returns the `SHOWN` event names with the most time per update. */
export async function traceUpdates(
  page: Page,
  updates: number,
  work: () => Promise<void>,
): Promise<string[]> {
  const session = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  session.on("Tracing.dataCollected", (data) => {
    // The protocol's types give events as string maps; Chromium's are the trace format's.
    events.push(...(data.value as unknown as TraceEvent[]));
  });
  const done = new Promise<void>((resolve) =>
    session.once("Tracing.tracingComplete", () => resolve()),
  );
  await session.send("Tracing.start", { categories: CATEGORIES, transferMode: "ReportEvents" });
  for (let i = 0; i < updates; i++) await work();
  await session.send("Tracing.end");
  await done;
  await session.detach();
  const totals = new Map<string, number>();
  for (const event of events) {
    if (event.ph !== "X" || event.dur === undefined) continue;
    const key = `${event.name} (thread ${event.tid})`;
    totals.set(key, (totals.get(key) ?? 0) + event.dur);
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, SHOWN)
    .map(([key, us]) => `${(us / 1000 / updates).toFixed(2).padStart(8)} ms/update  ${key}`);
}
