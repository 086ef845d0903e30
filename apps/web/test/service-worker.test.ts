// The console's service worker (public/sw.js) run in a sandbox with a fake network and cache: a
// page is handed over as soon as the network answers, whatever the cache does with its copy, and
// the copy serves when the network is gone.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";

const SOURCE = readFileSync(join(import.meta.dirname, "..", "public", "sw.js"), "utf8");
const ORIGIN = "http://console.test";

interface FakeResponse {
  ok: boolean;
  type: string;
  body: string;
  clone(): FakeResponse;
}

function answer(body: string): FakeResponse {
  return { ok: true, type: "basic", body, clone: () => answer(body) };
}

interface Setup {
  fetch: (request: unknown) => Promise<FakeResponse>;
  put?: (request: unknown, response: FakeResponse) => Promise<void>;
  stored?: Record<string, FakeResponse>;
}

/** The worker's fetch listener over the given network and cache. */
function worker(setup: Setup) {
  const listeners: Record<string, (event: unknown) => void> = {};
  const stored = setup.stored ?? {};
  const cache = {
    put: setup.put ?? (async () => undefined),
    match: async (request: string | { url: string }) =>
      stored[typeof request === "string" ? request : new URL(request.url).pathname],
  };
  runInNewContext(SOURCE, {
    self: {
      location: { href: `${ORIGIN}/sw.js?build=b1`, origin: ORIGIN },
      addEventListener: (type: string, listener: (event: unknown) => void) =>
        (listeners[type] = listener),
    },
    caches: { open: async () => cache },
    fetch: setup.fetch,
    URL,
  });
  return (path: string, mode = "navigate") => {
    let responded: Promise<FakeResponse> | null = null;
    const lifetime: Array<Promise<unknown>> = [];
    listeners.fetch?.({
      request: { method: "GET", url: `${ORIGIN}${path}`, mode },
      respondWith: (promise: Promise<FakeResponse>) => (responded = promise),
      waitUntil: (promise: Promise<unknown>) => lifetime.push(promise),
    });
    return { responded: responded as Promise<FakeResponse> | null, lifetime };
  };
}

/** The answer, or "held" when none came within half a second. */
const within = (promise: Promise<FakeResponse> | null) =>
  Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve("held"), 500))]);

describe("the console's service worker", () => {
  it("hands a page over before the cache has stored its copy", async () => {
    const page = answer("<html>nodes</html>");
    const visit = worker({ fetch: async () => page, put: () => new Promise(() => undefined) });
    const { responded, lifetime } = visit("/nodes");
    expect(await within(responded)).toBe(page);
    // The copy is still being stored, within the event's lifetime.
    expect(lifetime).toHaveLength(1);
  });

  it("hands a script over before the cache has stored its copy", async () => {
    const script = answer("console.log(1)");
    const visit = worker({ fetch: async () => script, put: () => new Promise(() => undefined) });
    expect(await within(visit("/_next/static/chunks/a.js", "no-cors").responded)).toBe(script);
  });

  it("still serves the page when the cache refuses to store it", async () => {
    const page = answer("<html>models</html>");
    const visit = worker({
      fetch: async () => page,
      put: async () => {
        throw new Error("QuotaExceededError");
      },
    });
    const { responded, lifetime } = visit("/models");
    expect(await within(responded)).toBe(page);
    await expect(Promise.all(lifetime)).resolves.toBeDefined();
  });

  it("serves the copy last kept when the network is gone", async () => {
    const kept = answer("<html>kept</html>");
    const visit = worker({
      fetch: async () => {
        throw new TypeError("Failed to fetch");
      },
      stored: { "/cluster": kept },
    });
    expect(await within(visit("/replicas").responded)).toBe(kept);
  });

  it("leaves the API to the network", () => {
    const visit = worker({ fetch: async () => answer("{}") });
    expect(visit("/api/trpc/nodes.list", "cors").responded).toBeNull();
  });
});
