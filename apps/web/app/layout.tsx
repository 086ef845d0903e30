// Root document. The inline script applies the remembered theme and language before first paint;
// everything visible is rendered on the client by <Providers>. The script carries the request's
// nonce: the Content-Security-Policy runs no other inline script.
import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { DEFAULT_LANGUAGE, DEFAULT_THEME, PREFERENCES_BOOT_SCRIPT } from "@/lib/preferences";
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
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
