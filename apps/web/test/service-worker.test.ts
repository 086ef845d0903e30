// The console's service worker (public/sw.js) run in a sandbox with a fake network and cache: a
// page is handed over as soon as the network answers, whatever the cache does with its copy, and
// the copy serves when the network is gone; a page the browser preloaded is not asked for twice,
// and the API and sign-in are routed past the worker when the browser allows it.
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

type Listener = (event: unknown) => void;

/** The worker's listeners over the given network and cache, and what it asked of the browser. */
function loadWorker(setup: Setup, registration: object = {}) {
  const listeners: Record<string, Listener> = {};
  const stored = setup.stored ?? {};
  const cache = {
    put: setup.put ?? (async () => undefined),
    addAll: async () => undefined,
    match: async (request: string | { url: string }) =>
      stored[typeof request === "string" ? request : new URL(request.url).pathname],
  };
  const asked = { skipWaiting: 0, claim: 0 };
  runInNewContext(SOURCE, {
    self: {
      location: { href: `${ORIGIN}/sw.js?build=b1`, origin: ORIGIN },
      addEventListener: (type: string, listener: Listener) => (listeners[type] = listener),
      registration,
      skipWaiting: async () => void asked.skipWaiting++,
      clients: { claim: async () => void asked.claim++ },
    },
    caches: { open: async () => cache, keys: async () => [] },
    fetch: setup.fetch,
    URL,
  });
  /** Dispatches a lifecycle event; resolves when everything it waited on has. */
  const lifecycle = async (type: string, extra: object = {}) => {
    const lifetime: Array<Promise<unknown>> = [];
    listeners[type]?.({
      ...extra,
      waitUntil: (promise: Promise<unknown>) => lifetime.push(promise),
    });
    await Promise.all(lifetime);
  };
  return { listeners, asked, lifecycle };
}

/** The worker's fetch listener over the given network and cache. */
function worker(setup: Setup) {
  const { listeners } = loadWorker(setup);
  return (path: string, mode = "navigate", preloadResponse?: Promise<FakeResponse | undefined>) => {
    let responded: Promise<FakeResponse> | null = null;
    const lifetime: Array<Promise<unknown>> = [];
    listeners.fetch?.({
      request: { method: "GET", url: `${ORIGIN}${path}`, mode },
      preloadResponse,
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

  it("hands over the page the browser preloaded without asking the network again", async () => {
    const preloaded = answer("<html>preloaded</html>");
    let asked = 0;
    const visit = worker({ fetch: async () => (asked++, answer("<html>again</html>")) });
    const { responded } = visit("/cluster", "navigate", Promise.resolve(preloaded));
    expect(await within(responded)).toBe(preloaded);
    expect(asked).toBe(0);
  });

  it("asks the network itself when nothing was preloaded", async () => {
    const page = answer("<html>fetched</html>");
    const visit = worker({ fetch: async () => page });
    expect(await within(visit("/cluster", "navigate", Promise.resolve(undefined)).responded)).toBe(
      page,
    );
  });

  it("serves the kept copy when the preload fails", async () => {
    const kept = answer("<html>kept</html>");
    const visit = worker({
      fetch: async () => {
        throw new TypeError("Failed to fetch");
      },
      stored: { "/cluster": kept },
    });
    const failed = Promise.reject(new TypeError("Failed to fetch"));
    expect(await within(visit("/nodes", "navigate", failed).responded)).toBe(kept);
  });

  it("routes the API and sign-in straight to the network when it installs", async () => {
    const { lifecycle, asked } = loadWorker({ fetch: async () => answer("") });
    const routes: unknown[] = [];
    await lifecycle("install", { addRoutes: async (rules: unknown[]) => routes.push(...rules) });
    expect(routes).toEqual([
      { condition: { urlPattern: { pathname: "/api/*" } }, source: "network" },
      { condition: { urlPattern: { pathname: "/auth/*" } }, source: "network" },
    ]);
    expect(asked.skipWaiting).toBe(1);
  });

  it("installs where the browser has no static routes or refuses them", async () => {
    const bare = loadWorker({ fetch: async () => answer("") });
    await bare.lifecycle("install");
    expect(bare.asked.skipWaiting).toBe(1);
    const refusing = loadWorker({ fetch: async () => answer("") });
    await refusing.lifecycle("install", {
      addRoutes: () => {
        throw new TypeError("unsupported condition");
      },
    });
    expect(refusing.asked.skipWaiting).toBe(1);
  });

  it("turns navigation preload on when it activates", async () => {
    let enabled = 0;
    const navigationPreload = { enable: async () => void enabled++ };
    const { lifecycle, asked } = loadWorker(
      { fetch: async () => answer("") },
      {
        navigationPreload,
      },
    );
    await lifecycle("activate");
    expect(enabled).toBe(1);
    expect(asked.claim).toBe(1);
  });
});
