// Relays one tRPC HTTP call from the browser to the control plane. Only the headers the server
// needs to identify the caller and parse the body go upstream; only the headers the browser needs
// to read the answer and keep the session come back. Fetch is injected so the relay is testable.

const REQUEST_HEADERS = [
  "cookie",
  "authorization",
  "content-type",
  "accept",
  "trpc-accept",
  "x-trpc-source",
  // The server refuses state-changing requests from other sites by these two.
  "origin",
  "sec-fetch-site",
];
// content-length and content-encoding are left out on purpose: fetch has already decoded the body,
// so the upstream values would describe bytes the browser never receives.
// location carries the single sign-on redirects (relayed with redirect: "manual").
const RESPONSE_HEADERS = ["content-type", "cache-control", "vary", "trpc-accept", "location"];

export interface RelayOptions {
  apiUrl: string;
  trpcPath: string;
  fetchImpl?: typeof fetch;
}

/** The upstream URL for a console request: the same path below the tRPC mount, same query. */
export function upstreamUrl(requestUrl: string, apiUrl: string, trpcPath: string): string {
  const incoming = new URL(requestUrl);
  const suffix = incoming.pathname.startsWith(trpcPath)
    ? incoming.pathname.slice(trpcPath.length)
    : "";
  return `${apiUrl}${trpcPath}${suffix}${incoming.search}`;
}

function upstreamHeaders(request: Request): Headers {
  const headers = new Headers();
  for (const name of REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  // The server decides whether its cookie must be Secure from the scheme the browser used.
  const incoming = new URL(request.url);
  headers.set("x-forwarded-proto", incoming.protocol.replace(":", ""));
  headers.set("x-forwarded-host", request.headers.get("host") ?? incoming.host);
  return headers;
}

function downstreamHeaders(upstream: Response): Headers {
  const headers = new Headers();
  for (const name of RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  // getSetCookie keeps several cookies apart; get("set-cookie") would join them with commas.
  for (const cookie of upstream.headers.getSetCookie()) headers.append("set-cookie", cookie);
  return headers;
}

/** A body shaped like a tRPC error response, so the client raises a TRPCClientError with data. */
function unreachableResponse(apiUrl: string, path: string, cause: unknown): Response {
  const detail = cause instanceof Error ? describeCause(cause) : String(cause);
  const message = `the console cannot reach the control plane at ${apiUrl} (${detail}); start it (llmgw server or llmgw dev) or point LLMGW_API_URL at it`;
  const body = {
    error: {
      message,
      code: -32603,
      data: { code: "BAD_GATEWAY", httpStatus: 502, path, apiUrl },
    },
  };
  return Response.json(body, { status: 502, headers: { "cache-control": "no-store" } });
}

function describeCause(error: Error): string {
  // undici wraps the socket error (ECONNREFUSED, ENOTFOUND…) as the cause of "fetch failed".
  const inner = error.cause;
  if (inner instanceof Error && "code" in inner && typeof inner.code === "string")
    return inner.code;
  return error.message;
}

export async function relayTrpcRequest(request: Request, options: RelayOptions): Promise<Response> {
  const fetchImpl = options.fetchImpl ?? fetch;
  const target = upstreamUrl(request.url, options.apiUrl, options.trpcPath);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  let upstream: Response;
  try {
    upstream = await fetchImpl(target, {
      method: request.method,
      headers: upstreamHeaders(request),
      body: hasBody ? await request.arrayBuffer() : undefined,
      redirect: "manual",
      cache: "no-store",
      signal: request.signal,
    });
  } catch (error) {
    const procedurePath = new URL(target).pathname.slice(options.trpcPath.length + 1);
    return unreachableResponse(options.apiUrl, procedurePath, error);
  }
  return new Response(upstream.body, {
    status: upstream.status,
    statusText: upstream.statusText,
    headers: downstreamHeaders(upstream),
  });
}
