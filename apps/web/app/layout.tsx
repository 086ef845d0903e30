// Root document. The inline script applies the remembered theme and language before first paint;
// everything visible is rendered on the client by <Providers>. The script carries the request's
// nonce: the Content-Security-Policy runs no other inline script.
import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { DEFAULT_LANGUAGE, DEFAULT_THEME, PREFERENCES_BOOT_SCRIPT } from "@/lib/preferences";
import { APP_THEME_COLOURS } from "@/lib/pwa/theme";
import { consoleBuild, isDevelopmentBuild } from "@/server-config";
import "./globals.css";
import "./styles/grid.css";
import "./styles/dialog.css";
import "./styles/sign-in.css";
import "./styles/models.css";
import "./styles/model-dialogs.css";
import "./styles/cluster.css";
import "./styles/command-palette.css";
import "./styles/node-charts.css";
import "./styles/bench.css";
import "./styles/mcp.css";
import "./styles/people.css";
import "./activity.css";
import "./identity.css";

export const metadata: Metadata = {
  title: "llmgw",
  description: "Control plane console for GPU clusters serving AI models",
  // The manifest link comes from app/manifest.ts; Safari reads its own icon and capability tags.
  icons: { apple: "/icons/apple-touch-icon-180.png" },
  appleWebApp: { capable: true, title: "llmgw", statusBarStyle: "black-translucent" },
};

// The installed window's title bar follows the system's light or dark choice.
export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: dark)", color: APP_THEME_COLOURS.dark },
    { media: "(prefers-color-scheme: light)", color: APP_THEME_COLOURS.light },
  ],
};

// Next requires the root layout as the default export. It reads the request's CSP nonce (set by
// proxy.ts), which also makes every page render per request, as a nonce needs.
export default async function RootLayout({ children }: { children: ReactNode }) {
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // The boot script may change lang and data-theme before React hydrates; that is intended.
    <html lang={DEFAULT_LANGUAGE} data-theme={DEFAULT_THEME} suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: PREFERENCES_BOOT_SCRIPT }} />
      </head>
      <body>
        <Providers build={consoleBuild()} isProduction={!isDevelopmentBuild()}>
          {children}
        </Providers>
      </body>
    </html>
  );
}
