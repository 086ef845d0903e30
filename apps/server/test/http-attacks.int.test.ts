// The public port under the requests an anonymous attacker sent (issue 12): a huge batch of
// password checks, a 20 MB body, a hundred wrong passwords, a NUL that showed the SQL, a broken
// session cookie, a sign-in answer a page's scripts could read, and a /v1 key with junk after it.
// Each is sent as the attacker sent it, against a real server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, startFleet, type Fleet, type ServerHandle } from "./harness";

let fleet: Fleet;
let server: ServerHandle;
beforeAll(async () => {
  fleet = await startFleet();
  ({ server } = fleet);
});
afterAll(() => fleet?.stop());

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.apiUrl}/api/trpc/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const login = (username: string, password: string, headers: Record<string, string> = {}) =>
  post("auth.login", { username, password }, headers);

describe("anonymous CPU amplification", () => {
  it("refuses a batch of 400 sign-ins with 400 before checking one password", async () => {
    const paths = Array.from({ length: 400 }, () => "auth.login").join(",");
    const inputs = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [i, { username: "admin", password: `guess-${i}` }]),
    );
    const startedMs = Date.now();
    const res = await post(`${paths}?batch=1`, inputs);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/at most 10 calls, this one holds 400/);
    expect(Date.now() - startedMs).toBeLessThan(1_000);
  });

  it("refuses a 20 MB anonymous body with 413 before parsing it", async () => {
    const huge = JSON.stringify({ username: "admin", password: "x".repeat(20 * 1024 * 1024) });
    const res = await post("auth.login", huge);
    expect(res.status).toBe(413);
    expect(await res.text()).toMatch(/larger than 1048576 bytes/);
  });

  it("slows wrong passwords with 429 and Retry-After, and never keeps the admin out", async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 14; i += 1) {
      const res = await login("admin", `wrong-${i}`);
      statuses.push(res.status);
      if (res.status === 429) retryAfter ??= res.headers.get("retry-after");
    }
    expect(statuses.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 401));
    expect(statuses.slice(10)).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    const throttled = await login("admin", ADMIN_PASSWORD);
    expect(throttled.status).toBe(429);
    expect(((await throttled.json()) as { error: { message: string } }).error.message).toMatch(
      /too many failed sign-ins .* wait \d+ s/,
    );
    // The probes stay quick: nothing was hashed for the refused attempts.
    const probeStartedMs = Date.now();
    expect((await fetch(`${server.apiUrl}/healthz`)).status).toBe(200);
    expect(Date.now() - probeStartedMs).toBeLessThan(500);
    // The wait is a delay, not a lockout: after Retry-After the admin signs in.
    const waitS = Number(throttled.headers.get("retry-after"));
    await new Promise((resolve) => setTimeout(resolve, waitS * 1000 + 100));
    expect((await login("admin", ADMIN_PASSWORD)).status).toBe(200);
  });
});

describe("control characters and internal errors", () => {
  it("refuses a NUL in a username with 400 naming the field, and shows no SQL", async () => {
    const res = await login("admin\u0000", "x");
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toMatch(/username holds the control character U\+0000/);
    expect(text).not.toMatch(/select|insert|params|users|"stack"/i);
  });

  it("refuses a username that would forge a line in the server log", async () => {
    const res = await login("eve\n2030-01-01T00:00:00.000Z server admin signed in", "x");
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/username must be one line/);
  });
});

describe("session cookies and tokens", () => {
  it("treats a session cookie that does not parse as no cookie", async () => {
    const headers = { cookie: "llmgw_session=%" };
    const me = await fetch(`${server.apiUrl}/api/trpc/auth.me`, { headers });
    expect(me.status).toBe(401);
    expect((await fetch(`${server.apiUrl}/api/trpc/status.cluster`, { headers })).status).not.toBe(
      500,
    );
    const res = await login("admin", ADMIN_PASSWORD, headers);
    expect(res.status).toBe(200);
  });

  it("keeps the session token out of a browser's sign-in answer, in the HttpOnly cookie only", async () => {
    const res = await login("admin", ADMIN_PASSWORD, {
      origin: server.apiUrl,
      "sec-fetch-site": "same-origin",
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie()[0] ?? "";
    const token = decodeURIComponent(cookie.split(";")[0]?.split("=")[1] ?? "");
    expect(token.length).toBeGreaterThan(20);
    expect(cookie).toMatch(/HttpOnly/);
    expect(await res.text()).not.toContain(token);
  });

  it("sends headers that forbid framing and sniffing", async () => {
    const res = await fetch(`${server.apiUrl}/healthz`);
    expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("/v1 keys", () => {
  it("answers `Bearer KEY junk` as a malformed header, not a missing key", async () => {
    const res = await fetch(`${server.apiUrl}/v1/models`, {
      headers: { authorization: "Bearer llmgw_0123456789abcdef junk" },
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("malformed_authorization");
    expect(body.error.message).toMatch(/2 words after Bearer/);
  });
});
