// Debian's Chromium as the browser benches run it: headless, no GPU, nothing of its own on the
// network, so what is timed is the console's work and not the browser's housekeeping.
import { chromium, type Browser } from "playwright-core";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}
