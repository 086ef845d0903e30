// Reading the caller from a request: a broken session cookie is no cookie, and a browser is told
// apart from the CLI by headers a page's scripts cannot remove.
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { isBrowserRequest, sessionTokenFrom } from "./context";

const request = (headers: IncomingMessage["headers"]) => ({ headers }) as IncomingMessage;

describe("sessionTokenFrom", () => {
  it("treats a session cookie that does not decode as no cookie instead of failing", () => {
    expect(sessionTokenFrom(request({ cookie: "llmgw_session=%" }))).toBeNull();
    expect(sessionTokenFrom(request({ cookie: "a=1; llmgw_session=%zz%" }))).toBeNull();
    expect(sessionTokenFrom(request({ cookie: "a=1; llmgw_session=abc%2Bdef" }))).toBe("abc+def");
  });
});

describe("isBrowserRequest", () => {
  it("is true when Origin or Sec-Fetch-Site is there, false for the CLI", () => {
    expect(isBrowserRequest(request({ origin: "http://console:3000" }))).toBe(true);
    expect(isBrowserRequest(request({ "sec-fetch-site": "same-origin" }))).toBe(true);
    expect(isBrowserRequest(request({ authorization: "Bearer x" }))).toBe(false);
  });
});
