// The browser's offer to install the console (Chromium's beforeinstallprompt). The event may fire
// before React has mounted anything, so it is caught here, once per tab, and kept until used:
// the command palette offers "Install llmgw" while one is held.

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

let offer: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();
let isListening = false;

function changed(next: BeforeInstallPromptEvent | null): void {
  offer = next;
  for (const listener of listeners) listener();
}

/** Starts catching the offer; safe to call more than once. */
export function catchInstallOffer(): void {
  if (isListening || typeof window === "undefined") return;
  isListening = true;
  window.addEventListener("beforeinstallprompt", (event) => {
    // Without preventDefault Chromium shows its own mini-bar; the palette is where the console offers it.
    event.preventDefault();
    changed(event as BeforeInstallPromptEvent);
  });
  window.addEventListener("appinstalled", () => changed(null));
}

export function subscribeInstallOffer(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function hasInstallOffer(): boolean {
  return offer !== null;
}

/** Shows the browser's install dialog; an offer can be used once, whatever the person answers. */
export async function acceptInstallOffer(): Promise<void> {
  const current = offer;
  if (!current) return;
  changed(null);
  await current.prompt();
  await current.userChoice;
}
