// The console's security headers as a browser receives them: every page forbids framing and runs
// only scripts carrying that request's nonce; relayed API answers run nothing and frame nowhere.
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "../proxy";
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
