// How the console's tRPC calls travel. Calls are batched into one request, except those whose
// answers grow with the fleet: a batch answers only when its slowest call is done, so at 2,000 nodes
// a page's small answers (a count, the status panel) waited on the fleet's cards (P9). Those go
// alone, in parallel with the batch. So does auth.me: the shell draws nothing of a page before it
// answers, and in a batch it waited on the page's own calls (the cluster's status, 350 ms after
// the cards at 500 nodes), holding back a page whose data had already come.
import type { AppRouter } from "@llmgw/api";
import { TRPC_BATCH_CALLS_MAX, TRPC_PATH } from "@llmgw/api/schemas";
import { httpBatchLink, httpLink, splitLink, type TRPCLink } from "@trpc/client";

/** Calls whose answer is a whole-fleet list, and auth.me: each travels in a request of its own. */
const UNBATCHED_PATHS: ReadonlySet<string> = new Set([
  "auth.me",
  "nodes.list",
  "nodes.summary",
  "nodes.page",
  "nodes.cards",
  "replicas.list",
  "replicas.page",
  "replicas.cards",
  // A node's log lines are its logs page's content: they travel alone, so the page's document
  // can preload them (opening-preloads.ts) and no batch waits on the agent's read.
  "logs.get",
]);

export function travelsAlone(path: string): boolean {
  return UNBATCHED_PATHS.has(path);
}

export function consoleLinks(): TRPCLink<AppRouter>[] {
  // Same-origin path: the console's route handler relays it to the control plane with the cookie.
  return [
    splitLink({
      condition: (op) => travelsAlone(op.path),
      true: httpLink({ url: TRPC_PATH }),
      false: httpBatchLink({ url: TRPC_PATH, maxItems: TRPC_BATCH_CALLS_MAX }),
    }),
  ];
}
