// The console's security headers as a browser receives them: every page forbids framing and runs
// only scripts carrying that request's nonce; relayed API answers run nothing and frame nowhere.
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "../proxy";
import { RETURN_COOKIE } from "../src/lib/desk/return-cookie";
import { pageContentSecurityPolicy } from "../src/lib/security-headers";

function answer(path: string) {
  const request = new NextRequest(`http://console.example${path}`);
  const response = proxy(request);
  const forwarded = (name: string) => response.headers.get(`x-middleware-request-${name}`);
  return { response, forwarded };
}

describe("console security headers", () => {
  it("gives a page a CSP that no other site can frame and that runs only nonce'd scripts", () => {
    const { response, forwarded } = answer("/cluster");
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? "";
    expect(nonce.length).toBeGreaterThanOrEqual(20);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    // Next reads the nonce back from the request's policy; the layout from x-nonce.
    expect(forwarded("x-nonce")).toBe(nonce);
    expect(forwarded("content-security-policy")).toBe(policy);
  });

  it("draws a fresh nonce for every page", () => {
    const first = answer("/sign-in").response.headers.get("content-security-policy");
    const second = answer("/sign-in").response.headers.get("content-security-policy");
    expect(first).not.toBe(second);
  });

  it("gives the relayed tRPC API a policy that runs nothing and frames nowhere", () => {
    const { response } = answer("/api/trpc/auth.login");
    expect(response.headers.get("content-security-policy")).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("lets the console register its own service worker and manifest, and nobody else's", () => {
    const policy = answer("/cluster").response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("worker-src 'self'");
    expect(policy).toContain("manifest-src 'self'");
    expect(policy).not.toMatch(/worker-src[^;]*(\*|https?:|blob:)/);
  });

  it("allows eval only on a development server", () => {
    expect(pageContentSecurityPolicy("n", false)).not.toContain("unsafe-eval");
    expect(pageContentSecurityPolicy("n", true)).toContain("'unsafe-eval'");
  });
});

describe('"/" and the page this browser last had open', () => {
  function visit(path: string, cookie?: string, method = "GET") {
    const headers = cookie === undefined ? undefined : { cookie };
    return proxy(new NextRequest(`http://console.example${path}`, { method, headers }));
  }

  it("sends a visit to / straight to the kept page, with its query", () => {
    const response = visit("/", `llmgw_session=s; ${RETURN_COOKIE}=%2Fnodes%2Fn%253A1%3Ftab%3Dx`);
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe("http://console.example/nodes/n%3A1?tab=x");
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });

  it("serves / itself without the cookie, and other pages whatever it holds", () => {
    expect(visit("/").headers.get("location")).toBeNull();
    expect(visit("/", "llmgw_session=s").headers.get("location")).toBeNull();
    expect(visit("/cluster", `${RETURN_COOKIE}=%2Fnodes`).headers.get("location")).toBeNull();
    expect(visit("/", `${RETURN_COOKIE}=%2Fnodes`, "POST").headers.get("location")).toBeNull();
  });

  // The attack: a cookie planted to turn the console's own "/" into a redirect to another site.
  it.each([
    ["another site", "https://evil.example/"],
    ["a protocol-relative address", "//evil.example"],
    ["a backslash read as a slash", "/\\evil.example"],
    ["a tab the browser drops", "/\t/evil.example"],
    ["the sign-in page (a loop)", "/sign-in"],
    ["/ itself (a loop)", "/"],
  ])("never follows a cookie naming %s", (_what, target) => {
    const response = visit("/", `${RETURN_COOKIE}=${encodeURIComponent(target)}`);
    expect(response.headers.get("location")).toBeNull();
  });

  it("ignores a cookie that is not percent-encoding", () => {
    expect(visit("/", `${RETURN_COOKIE}=%E0%A4%A`).headers.get("location")).toBeNull();
  });
});

describe("a signed-in page's first calls, preloaded with the document", () => {
  function page(path: string, cookie?: string, method = "GET") {
    const headers = cookie === undefined ? undefined : { cookie };
    return proxy(new NextRequest(`http://console.example${path}`, { method, headers }));
  }

  it("names auth.me and the page's fleet-sized list in the page's Link header", () => {
    const link = page("/replicas?model=m1", "llmgw_session=s").headers.get("link") ?? "";
    expect(link).toContain("</api/trpc/auth.me>; rel=preload; as=fetch; crossorigin");
    expect(link).toContain(
      `</api/trpc/replicas.page?input=${encodeURIComponent(
        '{"model":"m1","sort":{"key":"model","direction":"asc"},"offset":0,"limit":200}',
      )}>; rel=preload`,
    );
  });

  it("preloads nothing for a visitor without a session, a relayed call or a form post", () => {
    expect(page("/cluster").headers.get("link")).toBeNull();
    expect(page("/api/trpc/auth.me", "llmgw_session=s").headers.get("link")).toBeNull();
    expect(page("/cluster", "llmgw_session=s", "POST").headers.get("link")).toBeNull();
    expect(page("/sign-in", "llmgw_session=s").headers.get("link")).toBeNull();
  });
});
