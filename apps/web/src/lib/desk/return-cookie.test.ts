// The cookie by which the console's proxy sends "/" straight to the person's last page: what the
// shell writes is what the proxy reads back, only a page of this console is ever kept, and signing
// out removes it.
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { forgetReturnPath, keepReturnPath, RETURN_COOKIE, returnTarget } from "./return-cookie";

/** A document whose cookie setter keeps what was written, as a browser's jar would be asked. */
function fakeBrowser(protocol = "http:") {
  const written: string[] = [];
  vi.stubGlobal("window", { location: { protocol } });
  vi.stubGlobal("document", {
    set cookie(value: string) {
      written.push(value);
    },
  });
  return written;
}

/** The cookies of a request carrying this Cookie header, as the proxy reads them. */
const cookiesOf = (header: string) =>
  new NextRequest("http://console.test/", { headers: { cookie: header } }).cookies;

/** The name=value part of a Set-Cookie-like string, as the browser later sends it. */
const sent = (written: string) => written.split(";")[0] ?? "";

afterEach(() => vi.unstubAllGlobals());

describe("the return cookie", () => {
  it("keeps the page, with its query, as the proxy reads it back", () => {
    const written = fakeBrowser();
    keepReturnPath("/nodes/node%3A1/logs?source=r1");
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/; Path=\/; SameSite=Lax; Max-Age=\d+$/);
    expect(returnTarget(cookiesOf(`other=1; ${sent(written[0] ?? "")}`))).toBe(
      "/nodes/node%3A1/logs?source=r1",
    );
  });

  it("is Secure when the console is opened over https", () => {
    const written = fakeBrowser("https:");
    keepReturnPath("/models");
    expect(written[0]).toContain("; Secure");
  });

  it('keeps neither "/" nor a path that leads elsewhere', () => {
    const written = fakeBrowser();
    for (const path of ["/", "//evil.example", "/\\evil.example", "/sign-in?next=/x"])
      keepReturnPath(path);
    expect(written).toEqual([]);
  });

  it("is removed on signing out", () => {
    const written = fakeBrowser();
    forgetReturnPath();
    expect(written).toEqual([`${RETURN_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0`]);
  });

  it("reads only its own cookie", () => {
    expect(returnTarget(cookiesOf("llmgw_returned=%2Fmodels; x_llmgw_return=%2Fkeys"))).toBeNull();
    expect(returnTarget(cookiesOf(""))).toBeNull();
  });
});
