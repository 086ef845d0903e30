/* global self, caches */
// The console's service worker: it keeps the application shell (the pages' HTML as last served,
// Next's hashed scripts and styles, the icons) so the window opens and the last view stays readable
// when the console or the control plane cannot be reached. Data never goes through it: /api and
// /auth are left to the network, so nothing an operator is allowed to see is kept here (the pages' HTML holds no data: the
// console renders everything on the client).
// Registered as /sw.js?build=<console build>; a new build is a new script URL, which installs a
// fresh worker that drops the previous build's cache.
const BUILD = new URL(self.location.href).searchParams.get("build") || "unknown";
const CACHE = `llmgw-shell-${BUILD}`;
const PRECACHE = ["/manifest.webmanifest", "/icons/icon-192.png", "/icons/icon-512.png"];
const NEVER_CACHED = ["/api/", "/auth/", "/sw.js"];

// Requests this worker only declines go straight to the network, without waking it or waiting
// for it (static routes, Chromium 123 and later): otherwise every tRPC call and poll of a page
// queued behind the worker's thread just to be let through.
const NETWORK_ROUTES = ["/api/*", "/auth/*"].map((pathname) => ({
  condition: { urlPattern: { pathname } },
  source: "network",
}));

// A browser without static routes, or one that refuses these, still gets a working worker.
function addNetworkRoutes(event) {
  if (typeof event.addRoutes !== "function") return Promise.resolve();
  return Promise.resolve()
    .then(() => event.addRoutes(NETWORK_ROUTES))
    .catch(() => undefined);
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    Promise.all([
      addNetworkRoutes(event),
      caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)),
    ]).then(() => self.skipWaiting()),
  );
});

// Navigation preload: the browser asks the network for a page while the worker starts, instead of
// only once the worker runs and asks itself.
function enableNavigationPreload() {
  const preload = self.registration && self.registration.navigationPreload;
  return preload ? preload.enable().catch(() => undefined) : Promise.resolve();
}

self.addEventListener("activate", (event) => {
  const dropOldCaches = caches
    .keys()
    .then((names) =>
      Promise.all(
        names
          .filter((name) => name.startsWith("llmgw-shell-") && name !== CACHE)
          .map((name) => caches.delete(name)),
      ),
    );
  event.waitUntil(
    Promise.all([dropOldCaches, enableNavigationPreload()]).then(() => self.clients.claim()),
  );
});

// What a fetch keeps is stored while the page already has its answer: waiting for the cache first
// held every page back until its whole body had been read and written, and a cache that refused to
// store it (full) failed the page.
function keeper(event) {
  return (request, response) =>
    event.waitUntil(
      caches
        .open(CACHE)
        .then((cache) => cache.put(request, response))
        .catch(() => undefined),
    );
}

// Pages: the network first (a page carries a fresh CSP nonce), the copy last served when it fails.
// The network's answer is the preloaded one when the browser started it (see above).
async function networkFirst(request, keep, preloaded) {
  try {
    const response = (await preloaded) || (await fetch(request));
    if (response.ok && response.type === "basic") keep(request, response.clone());
    return response;
  } catch (error) {
    const cache = await caches.open(CACHE);
    const cached =
      (await cache.match(request, { ignoreSearch: true })) || (await cache.match("/cluster"));
    if (cached) return cached;
    throw error;
  }
}

// Next's /_next/static files are named by their content, so a cached copy is never stale.
async function cacheFirst(request, keep) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) keep(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (NEVER_CACHED.some((prefix) => url.pathname.startsWith(prefix))) return;
  if (request.mode === "navigate") {
    event.respondWith(networkFirst(request, keeper(event), event.preloadResponse));
  } else if (url.pathname.startsWith("/_next/static/") || url.pathname.startsWith("/icons/")) {
    event.respondWith(cacheFirst(request, keeper(event)));
  }
});

// A click on a desktop notification brings the console forward on the page it names.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = (event.notification.data && event.notification.data.path) || "/cluster";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => "focus" in client);
      if (open) return open.focus().then((client) => client.navigate(path));
      return self.clients.openWindow(path);
    }),
  );
});
