import type { AppRouter } from "@llmgw/api";
import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, TRPCClientError, type TRPCLink } from "@trpc/client";
import { observable } from "@trpc/server/observable";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { deskKey, type DeskStore } from "./desk/desk-storage";
import { isUnauthorized } from "./errors";
import {
  EVENTS_PAGE_SIZE,
  isConsolePath,
  pageRouteOf,
  pageToPrefetch,
  prefetchPageQueries,
  startOpeningQueries,
  takeStartedAtLoad,
} from "./page-prefetch";
import { openingNodesInput, openingReplicasInput } from "./table-inputs";

interface Asked {
  path: string;
  input: unknown;
}

/** A tRPC client whose every call is recorded and answered `{}`, or refused with `refusalCode`. */
function fakeConsole(refusalCode?: string) {
  const asked: Asked[] = [];
  const link: TRPCLink<AppRouter> =
    () =>
    ({ op }) =>
      observable((observer) => {
        asked.push({ path: op.path, input: op.input });
        if (refusalCode) {
          const error = { message: "refused", code: -32001, data: { code: refusalCode } };
          observer.error(TRPCClientError.from({ error }));
        } else {
          observer.next({ result: { type: "data", data: {} } });
          observer.complete();
        }
      });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const client = createTRPCClient<AppRouter>({ links: [link] });
  const trpc = createTRPCOptionsProxy<AppRouter>({ client, queryClient });
  return { asked, queryClient, trpc };
}

function mapStore(entries: Record<string, string> = {}): DeskStore {
  const map = new Map(Object.entries(entries));
  return { getItem: (key) => map.get(key) ?? null, setItem: (key, value) => map.set(key, value) };
}

describe("pageRouteOf", () => {
  it("names the route a path opens, with the node id decoded as the page decodes it", () => {
    expect(pageRouteOf("/cluster")).toEqual({ route: "/cluster" });
    expect(pageRouteOf("/nodes/")).toEqual({ route: "/nodes" });
    expect(pageRouteOf("/nodes/gpu%2F7")).toEqual({ route: "/nodes/[id]", id: "gpu/7" });
    expect(pageRouteOf("/nodes/n1/logs")).toEqual({ route: "/nodes/[id]/logs", id: "n1" });
  });

  it("has nothing for pages without prefetches, unknown paths and broken escapes", () => {
    expect(pageRouteOf("/usage")).toBeNull();
    expect(pageRouteOf("/nodes/n1/other")).toBeNull();
    expect(pageRouteOf("/nodes/%E0%A4%A")).toBeNull();
  });
});

describe("prefetchPageQueries", () => {
  it("asks the cluster page's five queries, each under the key the page reads", async () => {
    const { asked, queryClient, trpc } = fakeConsole();
    await prefetchPageQueries(trpc, queryClient, { pathname: "/cluster", search: "" });
    expect(asked.map((call) => call.path).sort()).toEqual([
      "models.list",
      "nodes.cards",
      "replicas.cards",
      "replicas.idle",
      "status.get",
    ]);
    expect(queryClient.getQueryData(trpc.nodes.cards.queryKey())).toEqual({});
  });

  it("asks with the page's inputs: the node's id, the model filter, the events' first page", async () => {
    const { queryClient, trpc } = fakeConsole();
    await prefetchPageQueries(trpc, queryClient, { pathname: "/nodes/n%201", search: "" });
    await prefetchPageQueries(trpc, queryClient, { pathname: "/replicas", search: "?model=qwen" });
    await prefetchPageQueries(trpc, queryClient, { pathname: "/events", search: "" });
    expect(queryClient.getQueryState(trpc.nodes.get.queryKey({ id: "n 1" }))?.status).toBe(
      "success",
    );
    const replicasInput = {
      model: "qwen",
      sort: { key: "model", direction: "asc" },
      offset: 0,
      limit: 200,
    } as const;
    expect(openingReplicasInput(new URLSearchParams("?model=qwen"))).toEqual(replicasInput);
    expect(queryClient.getQueryState(trpc.replicas.page.queryKey(replicasInput))).toBeDefined();
    const eventsKey = trpc.events.list.infiniteQueryKey({ limit: EVENTS_PAGE_SIZE });
    expect(queryClient.getQueryState(eventsKey)?.status).toBe("success");
  });

  it("asks a table's first window with the sort and filter on the last person's desk", async () => {
    const { asked, queryClient, trpc } = fakeConsole();
    const store = mapStore({
      [deskKey("u1", "table.replicas.sort")]: JSON.stringify({ direction: "desc", key: "node" }),
      [deskKey("u1", "table.nodes.sort")]: JSON.stringify({ key: "nope", direction: "asc" }),
      [deskKey("u1", "table.nodes.filter")]: JSON.stringify("h100"),
    });
    const desk = { lastUserId: "u1", store };
    await prefetchPageQueries(trpc, queryClient, { pathname: "/replicas", search: "" }, desk);
    await prefetchPageQueries(trpc, queryClient, { pathname: "/nodes", search: "" }, desk);
    expect(asked.filter((call) => call.path.endsWith(".page")).map((call) => call.input)).toEqual([
      { sort: { key: "node", direction: "desc" }, offset: 0, limit: 200 },
      // A sort the table does not know falls back to its default; the filter is kept.
      { filter: "h100", sort: { key: "name", direction: "asc" }, offset: 0, limit: 200 },
    ]);
  });

  it("asks a node's log lines with the page's source and request id, beside the node", async () => {
    const { asked, queryClient, trpc } = fakeConsole();
    const logsPage = { pathname: "/nodes/n1/logs", search: "" };
    await prefetchPageQueries(trpc, queryClient, logsPage);
    await prefetchPageQueries(trpc, queryClient, { ...logsPage, search: "?source=r1&request=q9" });
    expect(asked.filter((call) => call.path === "logs.get").map((call) => call.input)).toEqual([
      { node: "n1", source: "agent", lines: 200 },
      { node: "n1", source: "r1", lines: 200, requestId: "q9", everySource: true },
    ]);
    expect(asked.map((call) => call.path)).toContain("replicas.list");
  });

  it("asks nothing ahead for a filtered events list, whose input it would guess wrong", async () => {
    const { asked, queryClient, trpc } = fakeConsole();
    await prefetchPageQueries(trpc, queryClient, {
      pathname: "/events",
      search: "?kind=node.lost",
    });
    expect(asked.map((call) => call.path)).toEqual(["events.attention"]);
  });

  it("for / asks the page the last person here returns to, or the landing page", () => {
    const store = mapStore({ [deskKey("u1", "lastPage")]: JSON.stringify("/replicas?model=m") });
    const root = { pathname: "/", search: "" };
    expect(pageToPrefetch(root, { lastUserId: "u1", store })).toEqual({
      pathname: "/replicas",
      search: "?model=m",
    });
    expect(pageToPrefetch(root, { lastUserId: null, store })).toEqual({
      pathname: "/cluster",
      search: "",
    });
    const nodes = { pathname: "/nodes/n1", search: "?x=1" };
    expect(pageToPrefetch(nodes, { lastUserId: "u1", store })).toEqual(nodes);
  });

  it("a signed-out visit's refusal stays in the cache for the shell's sign-in redirect", async () => {
    const signedOut = fakeConsole("UNAUTHORIZED");
    await expect(
      prefetchPageQueries(signedOut.trpc, signedOut.queryClient, {
        pathname: "/nodes",
        search: "",
      }),
    ).resolves.toBeUndefined();
    const state = signedOut.queryClient.getQueryState(
      signedOut.trpc.nodes.page.queryKey(openingNodesInput()),
    );
    expect(state?.status).toBe("error");
    expect(isUnauthorized(state?.error)).toBe(true);
    expect(state?.data).toBeUndefined();
  });

  it("asks nothing for a page it does not know", async () => {
    const { asked, queryClient, trpc } = fakeConsole();
    await prefetchPageQueries(trpc, queryClient, { pathname: "/usage", search: "" });
    expect(asked).toEqual([]);
  });
});

/** Every page under app/(console), as a path one opens (a node id in place of `[id]`). */
function consolePagePaths(): string[] {
  const appDir = join(import.meta.dirname, "..", "..", "app", "(console)");
  const pages = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? pages(join(dir, entry.name))
        : entry.name === "page.tsx"
          ? [relative(appDir, dir)]
          : [],
    );
  return pages(appDir).map((dir) =>
    `/${dir
      .split(sep)
      .filter((part) => part !== "")
      .join("/")}`.replace("[id]", "node-1"),
  );
}

describe("startOpeningQueries", () => {
  it("knows every console page, and no page outside the console", () => {
    const paths = consolePagePaths();
    expect(paths.length).toBeGreaterThan(15);
    expect(paths.filter((path) => !isConsolePath(path))).toEqual([]);
    for (const path of ["/sign-in", "/auth/oidc/callback", "/bench/heatmap", "/nodes/n1/x"])
      expect(isConsolePath(path)).toBe(false);
  });

  it("asks auth.me with the page's first queries, in one go, as the console loads", () => {
    const { asked, queryClient, trpc } = fakeConsole();
    startOpeningQueries(
      trpc,
      queryClient,
      { pathname: "/nodes", search: "" },
      { lastUserId: null },
    );
    // Asked synchronously: nothing waits for React to render.
    expect(asked.map((call) => call.path).sort()).toEqual(["auth.me", "nodes.page"]);
    const usage = fakeConsole();
    startOpeningQueries(
      usage.trpc,
      usage.queryClient,
      { pathname: "/usage", search: "" },
      {
        lastUserId: null,
      },
    );
    expect(usage.asked.map((call) => call.path)).toEqual(["auth.me"]);
  });

  it("asks nothing on the sign-in page, where no one is signed in yet", () => {
    const { asked, queryClient, trpc } = fakeConsole();
    startOpeningQueries(
      trpc,
      queryClient,
      { pathname: "/sign-in", search: "" },
      { lastUserId: null },
    );
    expect(asked).toEqual([]);
    expect(takeStartedAtLoad(queryClient)).toBe(false);
  });

  it("tells the shell once that they left, so a later shell in the tab asks for itself", () => {
    const { queryClient, trpc } = fakeConsole();
    startOpeningQueries(trpc, queryClient, { pathname: "/", search: "" }, { lastUserId: null });
    expect(takeStartedAtLoad(queryClient)).toBe(true);
    expect(takeStartedAtLoad(queryClient)).toBe(false);
  });
});
