// The calls a page's Link header preloads are the very requests the console's own tRPC client
// makes as the page loads (else the browser asks twice), and only those that travel alone.
import type { AppRouter } from "@llmgw/api";
import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient } from "@trpc/client";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openingPreloadHeader, openingPreloadUrls } from "./opening-preloads";
import { startOpeningQueries } from "./page-prefetch";
import { consoleLinks } from "./trpc-links";

/** The URLs the console's client fetches as the page at `pathname` loads (answers never come). */
async function requestedAtLoad(pathname: string, search = ""): Promise<string[]> {
  const urls: string[] = [];
  vi.stubGlobal("fetch", (url: string) => {
    urls.push(String(url));
    return new Promise(() => undefined);
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const client = createTRPCClient<AppRouter>({ links: consoleLinks() });
  const trpc = createTRPCOptionsProxy<AppRouter>({ client, queryClient });
  startOpeningQueries(trpc, queryClient, { pathname, search }, { lastUserId: null });
  // The batch link gathers its calls for one tick before it fetches.
  await new Promise((resolve) => setTimeout(resolve, 20));
  return urls;
}

afterEach(() => vi.unstubAllGlobals());

describe("openingPreloadUrls", () => {
  const pages: Array<[string, string]> = [
    ["/cluster", ""],
    ["/nodes", ""],
    ["/replicas", ""],
    ["/replicas", "?model=qwen%2F7b%20chat"],
    ["/nodes/gpu%2F7/logs", ""],
    ["/nodes/gpu-7/logs", "?source=r%2F1&request=q9"],
    ["/models", ""],
    ["/account", ""],
  ];
  it.each(pages)("%s%s: every call that travels alone, as the client asks it", async (path, q) => {
    const asked = await requestedAtLoad(path, q);
    const alone = asked.filter((url) => !url.includes("batch=1"));
    expect(openingPreloadUrls(path, q)).toEqual(alone);
  });

  it("preloads the fleet-sized lists of the pages that wait on them", () => {
    expect(openingPreloadUrls("/cluster", "")).toEqual([
      "/api/trpc/auth.me",
      "/api/trpc/nodes.cards",
      "/api/trpc/replicas.cards",
    ]);
    expect(openingPreloadUrls("/replicas", "?model=m1")).toEqual([
      "/api/trpc/auth.me",
      `/api/trpc/replicas.page?input=${encodeURIComponent(
        '{"model":"m1","sort":{"key":"model","direction":"asc"},"offset":0,"limit":200}',
      )}`,
    ]);
  });

  it("preloads nothing outside the signed-in console, nor for / (it sends on elsewhere)", () => {
    expect(openingPreloadUrls("/sign-in", "")).toEqual([]);
    expect(openingPreloadUrls("/bench/heatmap", "")).toEqual([]);
    expect(openingPreloadUrls("/", "")).toEqual([]);
  });
});

describe("openingPreloadHeader", () => {
  it("asks for CORS fetches with the cookie, as the page's own fetch is made", () => {
    expect(openingPreloadHeader("/nodes", "")).toBe(
      "</api/trpc/auth.me>; rel=preload; as=fetch; crossorigin, " +
        `</api/trpc/nodes.page?input=${encodeURIComponent(
          '{"filter":"","sort":{"key":"name","direction":"asc"},"offset":0,"limit":200}',
        )}>; rel=preload; as=fetch; crossorigin`,
    );
    expect(openingPreloadHeader("/sign-in", "")).toBeNull();
  });
});
