// The console's query cache and tRPC client. A browser tab has one pair, made when first asked
// for: the providers module asks at load so the opened page's first queries can leave before
// React has hydrated (lib/page-prefetch.ts, P9), and <Providers> renders with the same pair.
// Anywhere else (a server render, which asks nothing) each call gets a pair of its own.
import type { AppRouter } from "@llmgw/api";
import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, type TRPCClient } from "@trpc/client";
import { createTRPCOptionsProxy, type TRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { isPermanentError } from "../lib/errors";
import { consoleLinks } from "../lib/trpc-links";

const RETRIES_MAX = 2;

interface ConsoleClients {
  queryClient: QueryClient;
  trpcClient: TRPCClient<AppRouter>;
  /** Query options and keys outside React, the same the pages' hooks use. */
  trpc: TRPCOptionsProxy<AppRouter>;
}

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

function createConsoleClients(): ConsoleClients {
  const queryClient = createQueryClient();
  const trpcClient = createTRPCClient<AppRouter>({ links: consoleLinks() });
  return {
    queryClient,
    trpcClient,
    trpc: createTRPCOptionsProxy({ client: trpcClient, queryClient }),
  };
}

let tabClients: ConsoleClients | undefined;

export function consoleClients(): ConsoleClients {
  if (typeof window === "undefined") return createConsoleClients();
  tabClients ??= createConsoleClients();
  return tabClients;
}
