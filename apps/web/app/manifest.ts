// The web app manifest (/manifest.webmanifest): what a browser needs to install the console as a
// desktop application of its own. Next links it from every page. The icons are PNGs made from
// app/icon.svg at the sizes Windows, macOS, Linux desktops and Android ask for; the maskable ones
// keep the glyph inside the central 80 % that a platform's mask may not cut.
import type { MetadataRoute } from "next";
import { APP_THEME_COLOURS } from "@/lib/pwa/theme";

const ICON_SIZES = [48, 72, 96, 128, 144, 192, 256, 384, 512] as const;

// Next requires the manifest as the default export of app/manifest.ts.
export default function manifest(): MetadataRoute.Manifest {
  return {
    id: "/",
    name: "llmgw",
    short_name: "llmgw",
    description: "Control plane console for GPU clusters serving AI models",
    start_url: "/",
    scope: "/",
    display: "standalone",
    // Where the browser offers it, the console draws into the title bar (the top bar leaves room).
    display_override: ["window-controls-overlay", "standalone"],
    background_color: APP_THEME_COLOURS.dark,
    theme_color: APP_THEME_COLOURS.dark,
    icons: [
      ...ICON_SIZES.map((size) => ({
        src: `/icons/icon-${size}.png`,
        sizes: `${size}x${size}`,
        type: "image/png",
        purpose: "any" as const,
      })),
      { src: "/icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
