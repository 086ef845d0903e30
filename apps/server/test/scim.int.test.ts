// SCIM 2.0 at /scim/v2 on a real server: a replay of Entra ID's provisioning requests (fixtures
// modelled on Microsoft's documented requests), the discovery resources, the bearer token, bad
// input answered with 4xx, the last sync time, and a provisioned person signing in through SSO.
import { must } from "@llmgw/domain";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEntraProvider, type EntraProvider } from "@llmgw/testing";
import { apiClient, startFleet, type Api, type Fleet, type ServerHandle } from "./harness";

interface Step {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  status: number;
  expect?: unknown;
  capture?: Record<string, string>;
}

const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures/scim-entra/entra-provisioning.json"), "utf8"),
) as { steps: Step[] };

function fill<T>(value: T, vars: Record<string, string>): T {
  return JSON.parse(
    JSON.stringify(value).replace(
      /\{\{(\w+)\}\}/g,
      (_, name: string) => vars[name] ?? `{{${name}}}`,
    ),
  ) as T;
}

describe("SCIM 2.0", () => {
  let fleet: Fleet;
  let server: ServerHandle;
  let admin: Api;
  let token: string;
  let provider: EntraProvider;

  const scim = (method: string, path: string, body?: unknown, bearer: string | null = token) =>
    fetch(`${server.apiUrl}/scim/v2${path}`, {
      method,
      headers: {
        "content-type": "application/scim+json",
        ...(bearer !== null && { authorization: `Bearer ${bearer}` }),
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });

  beforeAll(async () => {
    provider = await startEntraProvider();
    fleet = await startFleet();
    ({ server, api: admin } = fleet);
    token = (await admin.signIn.rotateScimToken.mutate()).token;
  });

  afterAll(async () => {
    await fleet?.stop();
    await provider?.stop();
  });

  it("refuses requests without the token, and an old token after rotation", async () => {
    expect((await scim("GET", "/Users", undefined, null)).status).toBe(401);
    expect((await scim("GET", "/Users", undefined, "llmgw_scim_wrong")).status).toBe(401);
    const old = token;
    token = (await admin.signIn.rotateScimToken.mutate()).token;
    expect((await scim("GET", "/Users", undefined, old)).status).toBe(401);
    expect((await scim("GET", "/Users")).status).toBe(200);
    const settings = await admin.signIn.settings.query();
    expect(settings.scim.hasToken).toBe(true);
    expect(JSON.stringify(settings)).not.toContain(token);
  });

  it("answers ServiceProviderConfig, Schemas and ResourceTypes", async () => {
    const spc = (await (await scim("GET", "/ServiceProviderConfig")).json()) as Record<
      string,
      { supported: boolean }
    >;
    expect(spc.patch?.supported).toBe(true);
    expect(spc.filter?.supported).toBe(true);
    const types = (await (await scim("GET", "/ResourceTypes")).json()) as {
      Resources: { id: string }[];
    };
    expect(types.Resources.map((r) => r.id)).toEqual(["User", "Group"]);
    const userSchema = await scim("GET", "/Schemas/urn:ietf:params:scim:schemas:core:2.0:User");
    expect(((await userSchema.json()) as { name: string }).name).toBe("User");
  });

  it("replays Entra ID's provisioning requests", async () => {
    const vars: Record<string, string> = {};
    const before = (await admin.signIn.settings.query()).scim.lastSyncAt;
    for (const raw of fixture.steps) {
      const step = fill(raw, vars);
      const res = await scim(step.method, step.path, step.body);
      const text = await res.text();
      expect({ step: step.name, status: res.status }).toEqual({
        step: step.name,
        status: step.status,
      });
      if (step.status !== 204)
        expect(res.headers.get("content-type")).toMatch(/application\/scim\+json/);
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      if (step.expect)
        expect(body, step.name).toMatchObject(step.expect as Record<string, unknown>);
      for (const [name, field] of Object.entries(step.capture ?? {}))
        vars[name] = String(body[field]);
    }
    const after = (await admin.signIn.settings.query()).scim.lastSyncAt;
    expect(after).not.toBeNull();
    expect(after).not.toBe(before);
    const audit = await admin.audit.list.query({ actor: "scim" });
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(["user.create", "user.deactivate", "group.create", "user.remove"]),
    );
  });

  it("answers bad input with a SCIM error and a 4xx, never a 500", async () => {
    const cases: [string, string, unknown][] = [
      ["POST", "/Users", "{not json"],
      ["POST", "/Users", { userName: "" }],
      ["POST", "/Users", { userName: "a b (c)" }],
      ["POST", "/Users", []],
      ["POST", "/Users", { userName: "x", active: "maybe" }],
      ["GET", "/Users?filter=userName+sw+%22a%22", undefined],
      ["GET", "/Users?filter=title+eq+%22a%22", undefined],
      [
        "PATCH",
        `/Users/${randomUUID()}`,
        { Operations: [{ op: "Replace", path: "active", value: false }] },
      ],
      ["PATCH", "/Users/x", { Operations: [] }],
      ["PATCH", "/Users/x", { Operations: [{ op: "Explode" }] }],
      ["POST", "/Groups", { displayName: "g", members: [{ value: "nobody" }] }],
      ["POST", "/Groups", { displayName: 42 }],
      ["GET", "/Nothing", undefined],
      ["PUT", "/Users", {}],
      ["GET", "/Users/a/b", undefined],
      ["POST", "/Users", "x".repeat(1_100_000)],
    ];
    for (const [method, path, body] of cases) {
      const res = await scim(method, path, body);
      expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      const error = (await res.json()) as { schemas: string[]; detail: string };
      expect(error.schemas).toEqual(["urn:ietf:params:scim:api:messages:2.0:Error"]);
      expect(error.detail.length).toBeGreaterThan(5);
    }
  });

  it("lets a provisioned person sign in through Entra ID, with roles from a provisioned group", async () => {
    await admin.signIn.setEntra.mutate({
      tenantId: provider.tenantId,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      authorityUrl: provider.authorityUrl,
    });
    const user = (await (
      await scim("POST", "/Users", {
        userName: "lin@contoso.example",
        active: true,
        displayName: "Lin",
      })
    ).json()) as { id: string };
    const groupExternal = randomUUID();
    const group = (await (
      await scim("POST", "/Groups", {
        displayName: "ml-viewers",
        externalId: groupExternal,
        members: [{ value: user.id }],
      })
    ).json()) as { id: string };
    expect(group.id).toBeTruthy();
    await admin.roles.grant.mutate({ group: "ml-viewers", role: "viewer" });
    provider.user = {
      oid: randomUUID(),
      name: "Lin",
      preferredUsername: "lin@contoso.example",
      groups: [groupExternal],
    };
    const start = await fetch(`${server.apiUrl}/auth/entra/start`, { redirect: "manual" });
    const atProvider = await fetch(
      must(start.headers.get("location"), "a redirect to the provider"),
      { redirect: "manual" },
    );
    const callback = await fetch(must(atProvider.headers.get("location"), "a redirect back"), {
      redirect: "manual",
    });
    const cookie = callback.headers.getSetCookie()[0] ?? "";
    expect(cookie).toMatch(/^llmgw_session=/);
    const session = decodeURIComponent(
      must(cookie.split(";")[0]?.split("=")[1], "a session cookie value"),
    );
    const me = await apiClient(server.apiUrl, session).auth.me.query();
    expect(me).toMatchObject({ id: user.id, username: "lin@contoso.example", role: "viewer" });
    // Deactivated by SCIM: the session ends at once.
    await scim("PATCH", `/Users/${user.id}`, {
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    await expect(apiClient(server.apiUrl, session).auth.me.query()).rejects.toThrow(
      /sign in first/,
    );
  });
});
