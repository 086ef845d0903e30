// The opening calls a console page makes that the browser can start with the page itself: the
// console's proxy names them in the page's `Link: rel=preload` header, so they leave as the
// document arrives instead of after every script has loaded and run (P9: at 2,000 nodes the first
// call left 0.3–1.8 s after the document's last byte, with the page idle in between). The page's
// own fetch of the same URL then takes the preloaded answer. Only calls that travel alone
// (trpc-links.ts) have a URL known in advance; a batch's URL depends on what joins it. Each URL
// must be the very one the console's tRPC client builds for the page's input, or the browser
// fetches twice: the tests compare them with the client's own requests.
import { TRPC_PATH } from "@llmgw/api/schemas";
import { isConsolePath, pageRouteOf } from "./page-prefetch";
import { openingNodesInput, openingReplicasInput } from "./table-inputs";
import { logsInput } from "../components/logs/logs-options";
import { travelsAlone } from "./trpc-links";

interface OpeningCall {
  path: string;
  input?: unknown;
}

/**
 * The page's opening calls that travel alone, with the inputs its components ask them with. A
 * table's first window is asked with its default sort and filter (the server cannot read the
 * person's desk): one who changed them has the page ask again, for a window of a few dozen KiB.
 */
function openingCalls(route: string, id: string, search: URLSearchParams): OpeningCall[] {
  switch (route) {
    case "/cluster":
      return [{ path: "nodes.cards" }, { path: "replicas.cards" }];
    case "/nodes":
      return [{ path: "nodes.page", input: openingNodesInput(NO_DESK) }];
    case "/replicas":
      return [{ path: "replicas.page", input: openingReplicasInput(search, NO_DESK) }];
    case "/nodes/[id]/logs":
      return [
        { path: "replicas.list", input: { node: id } },
        { path: "logs.get", input: logsInput(id, search) },
      ];
    default:
      return [];
  }
}

/** Nobody's desk: the tables' defaults. */
const NO_DESK = { lastUserId: null };

/** The URL tRPC's httpLink asks for a query called alone. */
function queryUrl(call: OpeningCall): string {
  const url = `${TRPC_PATH}/${call.path}`;
  return call.input === undefined
    ? url
    : `${url}?input=${encodeURIComponent(JSON.stringify(call.input))}`;
}

/** URLs the page at `pathname` (with `search`) asks first: auth.me, then its own calls. */
export function openingPreloadUrls(pathname: string, search: string): string[] {
  const page = pageRouteOf(pathname);
  // "/" is answered by a redirect or sends on once loaded: its page's calls are that page's.
  if (!isConsolePath(pathname) || page?.route === "/") return [];
  const calls = [
    { path: "auth.me" },
    ...(page ? openingCalls(page.route, page.id ?? "", new URLSearchParams(search)) : []),
  ];
  return calls.filter((call) => travelsAlone(call.path)).map(queryUrl);
}

/**
 * The `Link` header value that preloads them, or null for a page with none. `crossorigin` makes
 * the preload a CORS request with the session cookie, as the page's own fetch is, so they match.
 */
export function openingPreloadHeader(pathname: string, search: string): string | null {
  const urls = openingPreloadUrls(pathname, search);
  if (urls.length === 0) return null;
  return urls.map((url) => `<${url}>; rel=preload; as=fetch; crossorigin`).join(", ");
}
