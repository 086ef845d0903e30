"use client";
// Everything a console page needs from React context: preferences (language, theme), the query
// cache and the typed tRPC client. Created once per tab.
import type { AppRouter } from "@llmgw/api";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient } from "@trpc/client";
import { useState, type ReactNode } from "react";
import { useIsClient } from "../hooks/use-is-client";
import { isPermanentError } from "../lib/errors";
import { consoleLinks } from "../lib/trpc-links";
import { TRPCProvider } from "../trpc/react";
import { AppRuntime } from "./app-runtime";
import { PreferencesProvider } from "./preferences";

const RETRIES_MAX = 2;

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 1000,
        retry: (failureCount, error) => !isPermanentError(error) && failureCount < RETRIES_MAX,
      },
      mutations: { retry: false },
    },
  });
}

function createClient() {
  return createTRPCClient<AppRouter>({ links: consoleLinks() });
}

function ClientProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createClient);
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
