// What an attacker sends to the router, answered over HTTP: control characters in strings are
// refused by name before any service runs, an internal failure shows no detail, a browser never
// sees the session token, and a throttled sign-in is a 429.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { describe, expect, it } from "vitest";
import { RetryLaterError } from "./retry-later";
import { appRouter } from "./root";
import { ldapSettingsInputSchema } from "./sign-in/schemas";
import { fakeContext } from "../test/fake-context";

interface ErrorBody {
  error: { message: string; data: { code: string; requestId?: string; details: string[] } };
}

async function call(path: string, input: unknown, ctx = fakeContext("admin"), method = "POST") {
  const res = await fetchRequestHandler({
    endpoint: "/api/trpc",
    router: appRouter,
    req: new Request(`http://test/api/trpc/${path}`, {
      method,
      body: JSON.stringify(input),
      headers: { "content-type": "application/json" },
    }),
    createContext: () => ctx,
  });
  return { status: res.status, body: (await res.json()) as ErrorBody & { result?: unknown } };
}

const LOGIN_OK = {
  token: "session-token-secret",
  expiresAt: "2030-01-01T00:00:00.000Z",
  user: { id: "u1", username: "ada", role: "admin" as const },
};

describe("control characters in input", () => {
  it("refuses a NUL in auth.login's username anonymously, naming the field, before any check", async () => {
    const ctx = fakeContext(null);
    const { status, body } = await call(
      "auth.login",
      { username: "admin\u0000", password: "x" },
      ctx,
    );
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/^username .*U\+0000/);
    expect(ctx.services.auth.login).not.toHaveBeenCalled();
  });

  it("refuses a NUL anywhere in a nested input, naming where", async () => {
    const ctx = fakeContext("admin");
    const { status, body } = await call(
      "models.add",
      { definition: { name: "chat", profiles: [{ args: ["--x\u0000"] }] } },
      ctx,
    );
    expect(status).toBe(400);
    expect(body.error.message).toContain("definition.profiles.0.args.0");
    expect(ctx.services.models.add).not.toHaveBeenCalled();
  });

  it("refuses a line break in a one-line field: a username cannot forge a log line", async () => {
    const ctx = fakeContext(null);
    const forged = "eve\n2030-01-01T00:00:00.000Z server admin signed in";
    const { status, body } = await call("auth.login", { username: forged, password: "x" }, ctx);
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/^username: username must be one line .*U\+000A/);
    expect(ctx.services.auth.login).not.toHaveBeenCalled();
  });

  it("lets text over several lines keep its line breaks, but no other control character", () => {
    const base = { servers: ["ldaps://dc1.example.com"], bindDn: "cn=x,dc=example,dc=com" };
    const settings = {
      ...base,
      userBase: "dc=example,dc=com",
      caPem: "-----BEGIN CERTIFICATE-----\r\nMIIB\tAA==\n-----END CERTIFICATE-----\n",
    };
    expect(ldapSettingsInputSchema.safeParse(settings).success).toBe(true);
    const bell = ldapSettingsInputSchema.safeParse({
      ...settings,
      caPem: `${settings.caPem}\u0007`,
    });
    expect(bell.error?.issues.map((i) => i.message)).toContainEqual(
      expect.stringMatching(/^caPem holds the control character U\+0007/),
    );
  });
});

describe("procedures without input", () => {
  it("still run when the client sends an empty body, as the tRPC client does", async () => {
    const ctx = fakeContext("admin");
    ctx.services.auth.logoutEverywhere.mockResolvedValueOnce(3);
    const res = await fetchRequestHandler({
      endpoint: "/api/trpc",
      router: appRouter,
      req: new Request("http://test/api/trpc/auth.logoutEverywhere", {
        method: "POST",
        headers: { "content-type": "application/json" },
      }),
      createContext: () => ctx,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ result: { data: { ended: 3 } } });
  });
});

describe("internal failures", () => {
  it("answers a request id and a plain sentence, never the SQL with its parameters", async () => {
    const ctx = fakeContext("admin");
    ctx.services.nodes.list.mockRejectedValueOnce(
      new Error(`Failed query: select * from "users" where "username" = $1\nparams: secret-pw`),
    );
    const { status, body } = await call("nodes.list", undefined, ctx, "GET");
    expect(status).toBe(500);
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/select|users|secret-pw|Failed query|at .*\.ts/);
    const requestId = body.error.data.requestId ?? "none";
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.error.message).toContain(`request id ${requestId}`);
  });
});

describe("sign-in answers", () => {
  it("gives the token to the CLI but never to a browser's scripts", async () => {
    const cli = fakeContext(null);
    cli.services.auth.login.mockResolvedValueOnce(LOGIN_OK as never);
    const cliAnswer = await call("auth.login", { username: "ada", password: "pw" }, cli);
    expect(JSON.stringify(cliAnswer.body)).toContain("session-token-secret");

    const browser = { ...fakeContext(null), isBrowser: true };
    browser.services.auth.login.mockResolvedValueOnce(LOGIN_OK as never);
    const browserAnswer = await call("auth.login", { username: "ada", password: "pw" }, browser);
    expect(browserAnswer.status).toBe(200);
    expect(JSON.stringify(browserAnswer.body)).not.toContain("session-token-secret");
  });

  it("answers a throttled sign-in with 429 and the sentence that says how long", async () => {
    const ctx = fakeContext(null);
    ctx.services.auth.login.mockRejectedValueOnce(
      new RetryLaterError("too many failed sign-ins; try again in 8 s", 8, {
        code: "auth.throttled",
        params: { seconds: 8 },
      }),
    );
    const { status, body } = await call("auth.login", { username: "ada", password: "pw" }, ctx);
    expect(status).toBe(429);
    expect(body.error.message).toBe("too many failed sign-ins; try again in 8 s");
    expect(ctx.services.auth.login).toHaveBeenCalledWith("ada", "pw", "192.0.2.1");
  });
});
