// What a standby passes on of a client's request, and what the leader believes of it.
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { acceptRelayed, clientAddressOf, isRelayed } from "../http/client-address";
import { forwardedHeaders } from "./leader-proxy";

function requestOf(headers: Record<string, string>, remoteAddress = "192.0.2.10"): IncomingMessage {
  return { headers: { ...headers }, socket: { remoteAddress } } as unknown as IncomingMessage;
}

describe("forwardedHeaders", () => {
  it("passes the client's credentials and content headers, not the connection's", () => {
    const headers = forwardedHeaders(
      requestOf({
        host: "standby.example:8080",
        cookie: "llmgw_session=abc",
        authorization: "Bearer t",
        "content-type": "application/json",
        accept: "text/event-stream",
        connection: "keep-alive, x-private-hop",
        "keep-alive": "timeout=5",
        "transfer-encoding": "chunked",
        upgrade: "websocket",
        te: "trailers",
        "proxy-authorization": "Basic eA==",
        "x-private-hop": "1",
      }),
    );
    expect(headers).toEqual({
      cookie: "llmgw_session=abc",
      authorization: "Bearer t",
      "content-type": "application/json",
      accept: "text/event-stream",
      "x-forwarded-host": "standby.example:8080",
      "x-llmgw-client-address": "192.0.2.10",
    });
  });

  it("keeps the host a proxy in front already named, and overwrites a claimed client address", () => {
    const headers = forwardedHeaders(
      requestOf({
        host: "standby:8080",
        "x-forwarded-host": "console.example",
        "x-llmgw-client-address": "203.0.113.1",
      }),
    );
    expect(headers["x-forwarded-host"]).toBe("console.example");
    expect(headers["x-llmgw-client-address"]).toBe("192.0.2.10");
  });
});

describe("the relayed client address", () => {
  it("is the TCP peer for a request nobody relayed, whatever its headers say", () => {
    const req = requestOf({ "x-llmgw-client-address": "203.0.113.1" });
    expect([clientAddressOf(req), isRelayed(req)]).toEqual(["192.0.2.10", false]);
  });

  it("is the header's address once a control plane relayed the request", () => {
    const req = requestOf({ "x-llmgw-client-address": "2001:db8::7" });
    acceptRelayed(req);
    expect([clientAddressOf(req), isRelayed(req)]).toEqual(["2001:db8::7", true]);
    expect(req.headers["x-llmgw-client-address"]).toBeUndefined();
  });

  it("falls back to the relaying control plane's address when the header is no address", () => {
    const req = requestOf({ "x-llmgw-client-address": "evil, 1.2.3.4" });
    acceptRelayed(req);
    expect(clientAddressOf(req)).toBe("192.0.2.10");
  });
});
