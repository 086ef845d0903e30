// The queries a console page asks first, started with auth.me as the console's code loads (or by
// the shell, when it mounts later in the tab), so a full navigation (a reload, a link, the
// installed app) waits one round trip for both rather than auth.me's and then the page's, and
// neither waits for React to hydrate and render the shell (P9). The shell still renders nothing of the page before
// auth.me answers; a prefetched answer only waits in the query cache. A signed-out visit gets the
// server's UNAUTHORIZED for these as for auth.me, which the shell turns into the trip to sign-in.
// Each entry must ask with the very input its page uses, or the page asks again; the tests check
// the keys against the pages' inputs.
import type { AppRouter } from "@llmgw/api";
import type { QueryClient } from "@tanstack/react-query";
import type { TRPCOptionsProxy } from "@trpc/tanstack-react-query";
import type { DeskStore } from "./desk/desk-storage";
import { lastPageOrLanding } from "./desk/last-page";
import { logsInput } from "../components/logs/logs-options";
import { openingNodesInput, openingReplicasInput, type DeskOf } from "./table-inputs";

type Trpc = TRPCOptionsProxy<AppRouter>;

/** How many events the events page asks for at a time (its first page is prefetched). */
export const EVENTS_PAGE_SIZE = 50;

/** A route as apps/web spells it (`/nodes/[id]`) with the values of its dynamic segments. */
export interface PageRoute {
  route: string;
  id?: string;
}

const STATIC_ROUTES: ReadonlySet<string> = new Set([
  "/",
  "/cluster",
  "/nodes",
  "/replicas",
  "/models",
  "/events",
  "/facility",
  "/people",
  "/people/sign-in",
  "/keys",
  "/quotas",
  "/admin/federation",
  "/admin/guard",
  "/admin/mcp",
]);

/** The console's pages that ask nothing ahead beyond auth.me. */
const ROUTES_WITHOUT_QUERIES: ReadonlySet<string> = new Set([
  "/account",
  "/audit",
  "/usage",
  "/explore",
]);

/** Whether a path opens a page of the signed-in console (not sign-in, relays or the bench page). */
export function isConsolePath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return ROUTES_WITHOUT_QUERIES.has(path) || pageRouteOf(path) !== null;
}

/** The route a path opens, or null for one with nothing to prefetch. */
export function pageRouteOf(pathname: string): PageRoute | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (STATIC_ROUTES.has(path)) return { route: path };
  const node = /^\/nodes\/([^/]+)(\/logs)?$/.exec(path);
  if (!node?.[1]) return null;
  let id: string;
  try {
    id = decodeURIComponent(node[1]);
  } catch {
    // A broken escape: the page shows its own error for it; nothing worth asking ahead.
    return null;
  }
  return { route: node[2] ? "/nodes/[id]/logs" : "/nodes/[id]", id };
}

type Prefetches = (trpc: Trpc, queryClient: QueryClient, page: PageAddress) => Promise<void>[];

interface PageAddress {
  id: string;
  search: URLSearchParams;
  /** Whose desk holds the tables' sort and filter; absent: the signed-in person's. */
  desk?: DeskOf;
}

/** Each route's first queries, with the inputs its page component asks them with. */
const PAGE_QUERIES: Readonly<Record<string, Prefetches>> = {
  "/cluster": (trpc, qc) => [
    qc.prefetchQuery(trpc.nodes.cards.queryOptions()),
    qc.prefetchQuery(trpc.replicas.cards.queryOptions()),
    qc.prefetchQuery(trpc.models.list.queryOptions()),
    qc.prefetchQuery(trpc.status.get.queryOptions()),
    qc.prefetchQuery(trpc.replicas.idle.queryOptions()),
  ],
  "/nodes": (trpc, qc, { desk }) => [
    qc.prefetchQuery(trpc.nodes.page.queryOptions(openingNodesInput(desk))),
  ],
  "/nodes/[id]": (trpc, qc, { id }) => [
    qc.prefetchQuery(trpc.nodes.get.queryOptions({ id })),
    qc.prefetchQuery(trpc.nodes.history.queryOptions({ id })),
  ],
  "/nodes/[id]/logs": (trpc, qc, { id, search }) => [
    qc.prefetchQuery(trpc.nodes.get.queryOptions({ id })),
    qc.prefetchQuery(trpc.replicas.list.queryOptions({ node: id })),
    // The lines are the page's content: asked with the rest, not once the page has rendered.
    qc.prefetchQuery(trpc.logs.get.queryOptions(logsInput(id, search))),
  ],
  "/replicas": (trpc, qc, { search, desk }) => [
    qc.prefetchQuery(trpc.models.list.queryOptions()),
    qc.prefetchQuery(trpc.replicas.page.queryOptions(openingReplicasInput(search, desk))),
  ],
  "/models": (trpc, qc) => [qc.prefetchQuery(trpc.models.list.queryOptions())],
  "/events": (trpc, qc, { search }) => [
    qc.prefetchQuery(trpc.events.attention.queryOptions()),
    // Filters in the URL change the list's input; only the unfiltered first page is asked ahead.
    ...(search.size === 0
      ? [
          qc.prefetchInfiniteQuery(
            trpc.events.list.infiniteQueryOptions(
              { limit: EVENTS_PAGE_SIZE },
              { getNextPageParam: (page) => page.nextCursor ?? undefined },
            ),
          ),
        ]
      : []),
  ],
  "/facility": (trpc, qc) => [qc.prefetchQuery(trpc.facility.list.queryOptions())],
  "/people": (trpc, qc) => [
    qc.prefetchQuery(trpc.people.list.queryOptions()),
    qc.prefetchQuery(trpc.groups.list.queryOptions()),
    qc.prefetchQuery(trpc.org.list.queryOptions()),
    qc.prefetchQuery(trpc.roles.list.queryOptions()),
  ],
  "/people/sign-in": (trpc, qc) => [qc.prefetchQuery(trpc.signIn.settings.queryOptions())],
  "/keys": (trpc, qc) => [qc.prefetchQuery(trpc.keys.list.queryOptions())],
  "/quotas": (trpc, qc) => [qc.prefetchQuery(trpc.quotas.list.queryOptions())],
  "/admin/federation": (trpc, qc) => [qc.prefetchQuery(trpc.federation.list.queryOptions())],
  "/admin/guard": (trpc, qc) => [qc.prefetchQuery(trpc.guard.policies.list.queryOptions())],
  "/admin/mcp": (trpc, qc) => [qc.prefetchQuery(trpc.mcp.servers.list.queryOptions())],
};

interface PageUrl {
  pathname: string;
  search: string;
}

/**
 * The page whose queries to ask ahead for `url`: itself, or for "/" the page it returns to on this
 * device, read from the desk of whoever last signed in here (`desk.lastUserId`, or null): a guess
 * that costs at most a wasted request, since "/" sends on only once auth.me has answered.
 */
export function pageToPrefetch(
  url: PageUrl,
  desk: { lastUserId: string | null; store?: DeskStore },
): PageUrl {
  if (pageRouteOf(url.pathname)?.route !== "/")
    return { pathname: url.pathname, search: url.search };
  const next = new URL(lastPageOrLanding(desk.store, desk.lastUserId), "http://console.invalid");
  return { pathname: next.pathname, search: next.search };
}

/**
 * Starts the first queries of the page at `url`. Never throws: a failed prefetch leaves its error
 * in the cache, where the page (or the shell's sign-in redirect) deals with it.
 */
export function prefetchPageQueries(
  trpc: Trpc,
  queryClient: QueryClient,
  url: PageUrl,
  desk?: DeskOf,
): Promise<void> {
  const page = pageRouteOf(url.pathname);
  const prefetches = page ? PAGE_QUERIES[page.route] : undefined;
  if (!page || !prefetches) return Promise.resolve();
  const address = { id: page.id ?? "", search: new URLSearchParams(url.search), desk };
  return Promise.all(prefetches(trpc, queryClient, address)).then(() => undefined);
}

/** Query caches whose opening queries left as the console loaded (startOpeningQueries). */
const startedAtLoad = new WeakSet<QueryClient>();

/**
 * Called as the console's code loads, before React renders anything: on a console page, starts
 * auth.me and the page's first queries (those of `pageToPrefetch`). Elsewhere (sign-in) it asks
 * nothing. The shell, mounting later, asks again only when this did not run (takeStartedAtLoad).
 */
export function startOpeningQueries(
  trpc: Trpc,
  queryClient: QueryClient,
  url: PageUrl,
  desk: { lastUserId: string | null; store?: DeskStore },
): void {
  if (!isConsolePath(url.pathname)) return;
  startedAtLoad.add(queryClient);
  void queryClient.prefetchQuery(trpc.auth.me.queryOptions());
  void prefetchPageQueries(trpc, queryClient, pageToPrefetch(url, desk), desk);
}

/**
 * Whether the opening queries already left for this cache as the console loaded; true once, so
 * a shell mounted again later in the tab (signed out, then in) starts its page's queries itself.
 */
export function takeStartedAtLoad(queryClient: QueryClient): boolean {
  return startedAtLoad.delete(queryClient);
}
