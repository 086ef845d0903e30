// Navigation → interactive for one console page, measured inside Chromium. A probe installed
// before any page script (addInitScript) notes, on the page's own clock (performance.now(), whose
// zero is the start of the navigation), when the page's ready selector first matches (the main
// content rendered with data), and when the click Playwright sends as soon as it sees that content
// is dispatched and the frame after it painted (a task posted from the next requestAnimationFrame).
// "Interactive" is that last moment: content with data on screen and a click on it answered, so a
// main thread still busy after the data arrives (hydration, long renders) counts against the page.
import type { Page } from "playwright-core";

const READY_KEY = "llmgw-bench-ready";
const STEP_TIMEOUT_MS = 30_000;

export interface PageTiming {
  /** Navigation start → main content rendered with data. */
  readyMs: number;
  /** Navigation start → the frame after the click on that content painted. */
  interactiveMs: number;
}

interface Probe {
  readyAtMs?: number;
  clickAtMs?: number;
  clickPaintedAtMs?: number;
}

/**
 * Runs in every new document before its scripts; reads the selector the runner left for it. Kept
 * as source text: tsx compiles functions with name helpers that do not exist inside the page.
 */
const PROBE_SOURCE = `(() => {
  const probe = {};
  globalThis.llmgwConsoleProbe = probe;
  const selector = sessionStorage.getItem(${JSON.stringify(READY_KEY)});
  if (selector) {
    const observer = new MutationObserver(() => {
      if (!document.querySelector(selector)) return;
      probe.readyAtMs = performance.now();
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  }
  document.addEventListener("click", () => {
    if (probe.clickAtMs !== undefined) return;
    probe.clickAtMs = performance.now();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { probe.clickPaintedAtMs = performance.now(); };
      channel.port2.postMessage(null);
    });
  }, { capture: true });
})();`;

export async function installConsoleProbe(page: Page): Promise<void> {
  await page.addInitScript({ content: PROBE_SOURCE });
}

/**
 * Opens `url` (a full navigation) and times it; `ready` is the page's selector, `click` what to
 * click (the ready element unless given: a harmless element of the main content).
 */
export async function timeNavigation(
  page: Page,
  url: string,
  ready: string,
  click?: string,
): Promise<PageTiming> {
  await page.evaluate(
    ([key, value]) => {
      const storage = (
        globalThis as unknown as { sessionStorage: { setItem(key: string, value: string): void } }
      ).sessionStorage;
      storage.setItem(key, value);
    },
    [READY_KEY, ready] as const,
  );
  await page.goto(url, { waitUntil: "commit" });
  const target = page.locator(ready).first();
  await target.waitFor({ state: "visible", timeout: STEP_TIMEOUT_MS });
  // force: the element is already visible; Playwright's own stability wait (two frames) would
  // otherwise be counted against the page.
  await page
    .locator(click ?? ready)
    .first()
    .click({ force: true, timeout: STEP_TIMEOUT_MS });
  const handle = await page.waitForFunction(
    () => {
      const probe = (globalThis as { llmgwConsoleProbe?: Probe }).llmgwConsoleProbe;
      return probe?.clickPaintedAtMs !== undefined ? probe : null;
    },
    undefined,
    { timeout: STEP_TIMEOUT_MS },
  );
  const probe = (await handle.jsonValue()) as Probe;
  if (probe.readyAtMs === undefined || probe.clickPaintedAtMs === undefined)
    throw new Error(`${url}: the probe saw no content matching ${ready} before the click`);
  return { readyMs: probe.readyAtMs, interactiveMs: probe.clickPaintedAtMs };
}

export interface AnswerSize {
  procedure: string;
  bytes: number;
  serverMs: number;
}

/** Records every tRPC answer the console's pages receive: body size and time to the last byte. */
export function recordAnswers(page: Page): AnswerSize[] {
  const answers: AnswerSize[] = [];
  page.on("requestfinished", (request) => {
    const path = new URL(request.url()).pathname;
    if (!path.includes("/api/trpc/")) return;
    const procedure = decodeURIComponent(path.slice(path.indexOf("/api/trpc/") + 10));
    const timing = request.timing();
    void request
      .response()
      .then((response) => response?.body())
      .then((body) =>
        answers.push({
          procedure,
          bytes: body?.length ?? 0,
          serverMs: timing.responseEnd - timing.requestStart,
        }),
      )
      .catch(() => undefined);
  });
  return answers;
}
