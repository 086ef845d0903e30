"use client";
// Everything a console page needs from React context: preferences (language, theme), the query
// cache and the typed tRPC client (trpc/console-clients.ts: one pair per tab).
import { QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useIsClient } from "../hooks/use-is-client";
import { startOpeningQueries } from "../lib/page-prefetch";
import { lastUser } from "../lib/pwa/last-user";
import { consoleClients } from "../trpc/console-clients";
import { TRPCProvider } from "../trpc/react";
import { AppRuntime } from "./app-runtime";
import { PreferencesProvider } from "./preferences";

// The opened console page's first queries (and auth.me) leave as this module loads, while React
// is still to hydrate, render the shell and run its effects: on a loaded machine that was
// hundreds of milliseconds of every page's time before its first request (P9).
if (typeof window !== "undefined") {
  const { trpc, queryClient } = consoleClients();
  startOpeningQueries(trpc, queryClient, window.location, { lastUserId: lastUser()?.id ?? null });
}

function ClientProviders({ children }: { children: ReactNode }) {
  const [{ queryClient, trpcClient }] = useState(consoleClients);
  return (
    <PreferencesProvider>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          {children}
        </TRPCProvider>
      </QueryClientProvider>
    </PreferencesProvider>
  );
}

interface ProvidersProps {
  /** The console build that served the page (see next.config.ts). */
  build: string;
  /** False on a development server, which registers no service worker. */
  isProduction: boolean;
  children: ReactNode;
}

export function Providers({ build, isProduction, children }: ProvidersProps) {
  // Rendering only after hydration keeps server HTML and first client render identical even though
  // language and theme come from localStorage; every page needs the signed-in API anyway.
  const isClient = useIsClient();
  if (!isClient) return null;
  return (
    <AppRuntime build={build} isProduction={isProduction}>
      <ClientProviders>{children}</ClientProviders>
    </AppRuntime>
  );
}
