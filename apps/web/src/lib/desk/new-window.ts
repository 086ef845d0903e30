// A page of the console in a window of its own (Shift+Enter in tables and the palette, "Open in
// new window" on a row). It is the same origin, so the window shares the session cookie and the
// stored language and theme; in an installed app the browser opens it as another app window.

/** A window beside the main one rather than a tab; the browser may still decide otherwise. */
const NEW_WINDOW_FEATURES = "popup,width=1280,height=800";

export function openInNewWindow(path: string): void {
  // Same-origin paths only: every caller passes a console route it built itself.
  if (!path.startsWith("/") || path.startsWith("//")) return;
  window.open(path, "_blank", NEW_WINDOW_FEATURES);
}
