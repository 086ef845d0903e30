// Sign-in with Entra ID against a real local OpenID provider issuing Entra-shaped tokens (S9):
// the good path with groups mapped to roles, and every token or state that must be refused.
import { must } from "@llmgw/domain";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  forgeIdToken,
  startEntraProvider,
  unsignedIdToken,
  type EntraProvider,
} from "@llmgw/testing";
import { apiClient, startFleet, type Api, type Fleet, type ServerHandle } from "./harness";

const OPERATORS_GROUP = randomUUID();

interface Hop {
  status: number;
  location: string;
  cookie: string | null;
}

async function hop(url: string): Promise<Hop> {
  const res = await fetch(url, { redirect: "manual" });
  return {
    status: res.status,
    location: res.headers.get("location") ?? "",
    cookie: res.headers.getSetCookie()[0]?.split(";")[0] ?? null,
  };
}

describe("sign-in with Entra ID", () => {
  let fleet: Fleet;
  let server: ServerHandle;
  let admin: Api;
  let provider: EntraProvider;

  /** start → provider → callback; answers the callback's hop and the callback URL. */
  async function signInFlow(returnTo = "/models") {
    const start = await hop(
      `${server.apiUrl}/auth/entra/start?returnTo=${encodeURIComponent(returnTo)}`,
    );
    expect(start.status).toBe(302);
    const authorize = new URL(start.location);
    const atProvider = await hop(start.location);
    const callbackUrl = atProvider.location;
    return { authorize, callbackUrl, callback: await hop(callbackUrl) };
  }

  function refusedWith(result: Hop, pattern: RegExp) {
    expect(result.status).toBe(302);
    expect(result.cookie).toBeNull();
    const url = new URL(result.location, "http://x");
    expect(url.pathname).toBe("/sign-in");
    expect(url.searchParams.get("error")).toMatch(pattern);
  }

  beforeAll(async () => {
    provider = await startEntraProvider();
    fleet = await startFleet();
    ({ server, api: admin } = fleet);
    await admin.signIn.setEntra.mutate({
      tenantId: provider.tenantId,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      authorityUrl: provider.authorityUrl,
    });
    await admin.groups.create.mutate({ name: "entra-operators", externalId: OPERATORS_GROUP });
    await admin.roles.grant.mutate({ group: "entra-operators", role: "operator" });
  });

  afterAll(async () => {
    await fleet?.stop();
    await provider?.stop();
  });

  it("keeps the client secret sealed and out of every answer", async () => {
    const settings = await admin.signIn.settings.query();
    expect(settings.entra).toMatchObject({ tenantId: provider.tenantId, hasClientSecret: true });
    expect(JSON.stringify(settings)).not.toContain(provider.clientSecret);
    const audit = await admin.audit.list.query({ action: "setting.entra" });
    expect(audit[0]?.details).toMatchObject({ clientSecret: "[redacted]" });
    expect(await apiClient(server.apiUrl, null).signIn.methods.query()).toEqual({
      entra: true,
      ldap: false,
    });
  });

  it("signs a person in with PKCE, state and nonce, keyed by tid+oid, with roles from groups", async () => {
    provider.user = { ...provider.user, groups: [OPERATORS_GROUP, randomUUID()] };
    provider.claims = null;
    provider.idToken = null;
    const { authorize, callback } = await signInFlow("/models");
    expect(authorize.pathname).toBe(`/${provider.tenantId}/v2.0/authorize`);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("nonce")).toBeTruthy();
    expect(authorize.searchParams.get("state")).toBeTruthy();
    expect(callback).toMatchObject({ status: 302, location: "/models" });
    expect(callback.cookie).toMatch(/^llmgw_session=/);
    const token = decodeURIComponent(
      must(must(callback.cookie, "a session cookie").split("=")[1], "a cookie value"),
    );
    const me = await apiClient(server.apiUrl, token).auth.me.query();
    expect(me).toMatchObject({
      username: "ada@contoso.example",
      role: "operator",
      source: "entra",
    });
    // The second sign-in finds the same person by tid+oid, even under a new name.
    provider.user = { ...provider.user, preferredUsername: "ada.l@contoso.example" };
    await signInFlow();
    const people = (await admin.people.list.query()).filter((p) => p.source === "entra");
    expect(people.map((p) => p.username)).toEqual(["ada@contoso.example"]);
    expect(people[0]?.groups).toEqual(["entra-operators"]);
  });

  it("refuses a replayed state: a callback works once", async () => {
    provider.user = { ...provider.user, groups: [OPERATORS_GROUP] };
    const { callbackUrl, callback } = await signInFlow();
    expect(callback.cookie).not.toBeNull();
    refusedWith(await hop(callbackUrl), /already used or has expired/);
  });

  it("refuses a callback with a state it never issued", async () => {
    refusedWith(
      await hop(`${server.apiUrl}/auth/entra/callback?code=x&state=made-up`),
      /already used/,
    );
  });

  const bad: [string, () => void, RegExp][] = [
    [
      "an expired token",
      () =>
        (provider.claims = (p) =>
          Object.assign(p, {
            exp: Math.floor(Date.now() / 1000) - 3600,
            iat: Math.floor(Date.now() / 1000) - 7200,
          })),
      /exp|expired|timestamp/i,
    ],
    [
      "a token for another audience",
      () => (provider.claims = (p) => Object.assign(p, { aud: randomUUID() })),
      /aud/i,
    ],
    [
      "a token from another issuer",
      () =>
        (provider.claims = (p) =>
          Object.assign(p, { iss: `${provider.authorityUrl}/${randomUUID()}/v2.0` })),
      /iss/i,
    ],
    [
      "a token from another tenant",
      () => (provider.claims = (p) => Object.assign(p, { tid: randomUUID() })),
      /from tenant/,
    ],
    [
      "a forged token (claims changed after signing)",
      () => (provider.idToken = (t) => forgeIdToken(t, (p) => (p.oid = randomUUID()))),
      /signature|refused/i,
    ],
    ["an unsigned token (alg none)", () => (provider.idToken = unsignedIdToken), /alg|refused/i],
    [
      "a token whose nonce is not ours",
      () => (provider.claims = (p) => Object.assign(p, { nonce: "someone-elses" })),
      /nonce/i,
    ],
  ];
  for (const [what, arrange, reason] of bad) {
    it(`refuses ${what}`, async () => {
      provider.user = { ...provider.user, groups: [OPERATORS_GROUP] };
      provider.claims = null;
      provider.idToken = null;
      arrange();
      try {
        const { callback } = await signInFlow();
        refusedWith(callback, reason);
      } finally {
        provider.claims = null;
        provider.idToken = null;
      }
    });
  }

  it("fails closed on the groups overage unless told to ignore it", async () => {
    provider.user = { ...provider.user, overage: true };
    refusedWith((await signInFlow()).callback, /more than 200.*overage/);
    await admin.signIn.setEntra.mutate({
      tenantId: provider.tenantId,
      clientId: provider.clientId,
      authorityUrl: provider.authorityUrl,
      groupsOverage: "ignore",
    });
    // Ignored, the person keeps only what they hold directly, and the earlier group membership.
    const { callback } = await signInFlow();
    expect(callback.cookie).not.toBeNull();
    provider.user = { ...provider.user, overage: false };
  });

  it("refuses a person no mapped group holds", async () => {
    provider.user = {
      oid: randomUUID(),
      name: "Bob",
      preferredUsername: "bob@contoso.example",
      groups: [randomUUID()],
    };
    refusedWith((await signInFlow()).callback, /holds no role/);
  });

  it("answers bad input on /auth with a redirect or a 4xx, never a 500", async () => {
    for (const path of [
      "/auth/entra/callback",
      "/auth/entra/callback?state=%00%ff",
      "/auth/nothing",
      "/auth/entra/start?returnTo=//evil.example",
    ]) {
      const res = await fetch(`${server.apiUrl}${path}`, { redirect: "manual" });
      expect(res.status, path).toBeLessThan(500);
    }
    const evil = await hop(`${server.apiUrl}/auth/entra/start?returnTo=//evil.example`);
    const state = new URL(evil.location).searchParams.get("state");
    expect(state).toBeTruthy();
    const post = await fetch(`${server.apiUrl}/auth/entra/start`, { method: "POST" });
    expect(post.status).toBe(405);
  });
});
