import { describe, expect, it } from "vitest";
import { relayTrpcRequest, upstreamUrl } from "./trpc-proxy";

const API_URL = "http://127.0.0.1:8080";
const TRPC_PATH = "/api/trpc";

interface Recorded {
  url: string;
  init: RequestInit;
}

function fakeFetch(response: Response, recorded: Recorded[]): typeof fetch {
  return async (url: string | URL | Request, init?: RequestInit) => {
    const href = typeof url === "string" ? url : url instanceof URL ? url.href : url.url;
    recorded.push({ url: href, init: init ?? {} });
    return response;
  };
}

describe("upstreamUrl", () => {
  it("keeps the procedure path and the query", () => {
    expect(
      upstreamUrl(
        "http://console:3000/api/trpc/nodes.list,auth.me?batch=1&input=%7B%7D",
        API_URL,
        TRPC_PATH,
      ),
    ).toBe("http://127.0.0.1:8080/api/trpc/nodes.list,auth.me?batch=1&input=%7B%7D");
  });
});

describe("relayTrpcRequest", () => {
  it("forwards method, body and identifying headers, and returns status, body and every Set-Cookie", async () => {
    const upstreamHeaders = new Headers({
      "content-type": "application/json",
      "x-internal": "secret",
    });
    upstreamHeaders.append("set-cookie", "llmgw_session=abc; Path=/; HttpOnly");
    upstreamHeaders.append("set-cookie", "other=1; Path=/");
    const recorded: Recorded[] = [];
    const request = new Request("http://console:3000/api/trpc/auth.login?batch=1", {
      method: "POST",
      headers: { "content-type": "application/json", cookie: "a=b", "x-not-forwarded": "1" },
      body: JSON.stringify({ 0: { username: "admin", password: "pw" } }),
    });

    const response = await relayTrpcRequest(request, {
      apiUrl: API_URL,
      trpcPath: TRPC_PATH,
      fetchImpl: fakeFetch(
        new Response('[{"result":{}}]', { status: 200, headers: upstreamHeaders }),
        recorded,
      ),
    });

    expect(recorded[0]?.url).toBe("http://127.0.0.1:8080/api/trpc/auth.login?batch=1");
    expect(recorded[0]?.init.method).toBe("POST");
    expect(new TextDecoder().decode(recorded[0]?.init.body as ArrayBuffer)).toContain(
      '"username":"admin"',
    );
    const sent = new Headers(recorded[0]?.init.headers);
    expect(sent.get("cookie")).toBe("a=b");
    expect(sent.get("x-forwarded-proto")).toBe("http");
    expect(sent.has("x-not-forwarded")).toBe(false);

    expect(response.status).toBe(200);
    expect(await response.text()).toBe('[{"result":{}}]');
    expect(response.headers.getSetCookie()).toEqual([
      "llmgw_session=abc; Path=/; HttpOnly",
      "other=1; Path=/",
    ]);
    expect(response.headers.has("x-internal")).toBe(false);
  });

  it("passes upstream errors through unchanged", async () => {
    const response = await relayTrpcRequest(new Request("http://console:3000/api/trpc/auth.me"), {
      apiUrl: API_URL,
      trpcPath: TRPC_PATH,
      fetchImpl: fakeFetch(new Response('{"error":{}}', { status: 401 }), []),
    });
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('{"error":{}}');
  });

  it("answers 502 with a tRPC-shaped error naming the control plane URL when it is unreachable", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const failingFetch = (async () => {
      throw new TypeError("fetch failed", { cause: refused });
    }) as typeof fetch;

    const response = await relayTrpcRequest(
      new Request("http://console:3000/api/trpc/nodes.list"),
      {
        apiUrl: API_URL,
        trpcPath: TRPC_PATH,
        fetchImpl: failingFetch,
      },
    );

    expect(response.status).toBe(502);
    const body = (await response.json()) as {
      error: { message: string; code: number; data: Record<string, unknown> };
    };
    expect(body.error.message).toContain(
      "cannot reach the control plane at http://127.0.0.1:8080 (ECONNREFUSED)",
    );
    expect(body.error.code).toBe(-32603);
    expect(body.error.data).toMatchObject({
      code: "BAD_GATEWAY",
      httpStatus: 502,
      path: "nodes.list",
      apiUrl: API_URL,
    });
  });
});
