// Where one page's main thread goes (`--profile ROUTE`): Chromium's JavaScript sampling profiler
// over one timed load, then the functions with the most self time and the page's tRPC requests
// with when each started and finished, on the page's clock. For finding what holds a slow page
// past the bar; the console is a production build, so names are minified but files and lines tell.
import type { CDPSession, Page } from "playwright-core";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export async function startProfile(page: Page): Promise<CDPSession> {
  const session = await page.context().newCDPSession(page);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 500 });
  await session.send("Profiler.start");
  return session;
}

function where(frame: ProfileNode["callFrame"]): string {
  const file = frame.url.split("/").pop() ?? frame.url;
  const name = frame.functionName || "(anonymous)";
  return file ? `${name} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}` : name;
}

/** Stops the profiler; the `top` functions by self time, in ms. */
export async function stopProfile(session: CDPSession, top = 25): Promise<string[]> {
  const { profile } = (await session.send("Profiler.stop")) as { profile: Profile };
  await session.detach();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<string, number>();
  profile.samples.forEach((id, at) => {
    const node = byId.get(id);
    if (!node) return;
    const key = where(node.callFrame);
    selfUs.set(key, (selfUs.get(key) ?? 0) + (profile.timeDeltas[at] ?? 0));
  });
  return [...selfUs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, us]) => `${(us / 1000).toFixed(1).padStart(8)} ms  ${key}`);
}

/**
 * The navigation's own milestones on the page's clock: when the document's first and last bytes
 * came, when its scripts had run (DOMContentLoaded) and when the last script file arrived; what
 * a page spends before its first tRPC request is boot, not data.
 */
export async function navigationTimeline(page: Page): Promise<string[]> {
  const marks = await page.evaluate(() => {
    // Node's types lack the DOM's "navigation" entry type: the entry, as Chromium gives it.
    const [nav] = performance
      .getEntries()
      .filter((entry) => String(entry.entryType) === "navigation") as unknown as {
      responseStart: number;
      responseEnd: number;
      domInteractive: number;
      domContentLoadedEventEnd: number;
      loadEventEnd: number;
      redirectCount: number;
      redirectEnd: number;
    }[];
    const scripts = performance
      .getEntriesByType("resource")
      .filter((entry) => entry.name.endsWith(".js"))
      .map((entry) => (entry as unknown as { responseEnd: number }).responseEnd);
    return {
      // "/" answered by the console's proxy with a redirect to the last page: when it ended.
      [`${nav?.redirectCount ?? 0} redirect(s) done`]: nav?.redirectEnd ?? NaN,
      "document first byte": nav?.responseStart ?? NaN,
      "document last byte": nav?.responseEnd ?? NaN,
      "DOM interactive": nav?.domInteractive ?? NaN,
      "DOMContentLoaded done": nav?.domContentLoadedEventEnd ?? NaN,
      [`last of ${scripts.length} script files`]: Math.max(0, ...scripts),
      "load done": nav?.loadEventEnd ?? NaN,
    };
  });
  return Object.entries(marks).map(([what, ms]) => `${ms.toFixed(0).padStart(6)} ms  ${what}`);
}

/**
 * The page's tRPC requests: start and end (response end) on the page's clock, size, and what
 * started each (`link`: the document's preload header; `fetch`: the page's own code).
 */
export async function trpcTimeline(page: Page): Promise<string[]> {
  const entries = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((entry) => entry.name.includes("/api/trpc/"))
      .map((entry) => {
        // Node's types lack the DOM's PerformanceResourceTiming: its fields, as Chromium gives them.
        const resource = entry as unknown as {
          responseEnd: number;
          encodedBodySize: number;
          initiatorType: string;
        };
        return {
          name: decodeURIComponent(new URL(entry.name).pathname.split("/api/trpc/")[1] ?? ""),
          startMs: entry.startTime,
          endMs: resource.responseEnd,
          bytes: resource.encodedBodySize,
          initiator: resource.initiatorType,
        };
      }),
  );
  return entries.map(
    (e) =>
      `${e.startMs.toFixed(0).padStart(6)} → ${e.endMs.toFixed(0).padStart(6)} ms  ${(e.bytes / 1024).toFixed(1).padStart(8)} KiB  ${e.name} (${e.initiator})`,
  );
}
