// Registers the console's service worker (public/sw.js), named by the build so an upgrade installs
// a fresh one. Not on a development server, where a cached page would hide every edit.
export function registerShellWorker(build: string, isProduction: boolean): void {
  if (!isProduction || typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  // A browser that refuses (private window, disabled workers) still has the whole console online.
  navigator.serviceWorker
    .register(`/sw.js?build=${encodeURIComponent(build)}`, { scope: "/" })
    .catch(() => undefined);
}
