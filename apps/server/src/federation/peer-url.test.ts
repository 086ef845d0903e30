import { ServiceError } from "@llmgw/api";
import { describe, expect, it } from "vitest";
import { PEER_NAME_PATTERN, checkPeerUrl, peerPath } from "./peer-url";

function refusalOf(text: string): { code: string | undefined; message: string } {
  try {
    checkPeerUrl(text);
  } catch (error) {
    if (error instanceof ServiceError) return { code: error.refusal?.code, message: error.message };
    throw error;
  }
  throw new Error(`${text} was accepted`);
}

describe("a peer's address", () => {
  it("may be private or loopback: peers sit on the company's network", () => {
    expect(checkPeerUrl("http://10.1.2.3:8080").host).toBe("10.1.2.3:8080");
    expect(checkPeerUrl("http://127.0.0.1:9000/").hostname).toBe("127.0.0.1");
    expect(checkPeerUrl("https://llmgw.b.example/gw?x=1#y").href).toBe(
      "https://llmgw.b.example/gw",
    );
  });

  it("is never a cloud metadata address, in any spelling", () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data",
      "http://metadata.google.internal/",
      "http://[fd00:ec2::254]/",
    ])
      expect(refusalOf(url).code).toBe("federation.url_barred");
  });

  it("never carries a user and password, and the refusal does not repeat them", () => {
    const refusal = refusalOf("https://admin:hunter2@peer.example/");
    expect(refusal.code).toBe("federation.url_credentials");
    expect(refusal.message).not.toContain("hunter2");
  });

  it("is http(s) and a URL at all", () => {
    expect(refusalOf("ftp://peer.example").code).toBe("federation.url_scheme");
    expect(refusalOf("peer.example:8080").code).toBe("federation.url_scheme");
    expect(refusalOf("not a url").code).toBe("federation.url_not_url");
  });

  it("keeps its own path when a path is added under it", () => {
    expect(peerPath("https://p.example/gw/", "/ready")).toBe("https://p.example/gw/ready");
  });

  it("belongs to a peer named in lower case without dots or slashes", () => {
    expect(PEER_NAME_PATTERN.test("site-b")).toBe(true);
    expect(PEER_NAME_PATTERN.test("site/b")).toBe(false);
    expect(PEER_NAME_PATTERN.test("Site")).toBe(false);
  });
});
