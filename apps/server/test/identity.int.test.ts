// People, roles and sessions end to end on a real server: the roles hold over HTTP, sessions are
// cookies that other sites cannot use, signing out everywhere ends them all, tokens made for the
// CLI work as bearer tokens, and every change lands in the audit log with secrets redacted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { must } from "@llmgw/domain";
import { apiClient, codeOf, startFleet, type Api, type Fleet, type ServerHandle } from "./harness";

const PASSWORD = "correct horse battery";

async function loginAs(apiUrl: string, username: string) {
  const { token } = await apiClient(apiUrl, null).auth.login.mutate({
    username,
    password: PASSWORD,
  });
  return { token, api: apiClient(apiUrl, token) };
}

describe("people, roles and sessions", () => {
  let fleet: Fleet;
  let server: ServerHandle;
  let admin: Api;

  beforeAll(async () => {
    fleet = await startFleet();
    ({ server, api: admin } = fleet);
    await admin.org.create.mutate({ kind: "org", name: "acme" });
    await admin.org.create.mutate({ kind: "team", name: "ml", parent: "org:acme" });
    await admin.org.create.mutate({ kind: "project", name: "search", parent: "team:ml" });
    for (const [username, role] of [
      ["vera", "viewer"],
      ["otto", "operator"],
      ["tess", "viewer"],
    ] as const)
      await admin.people.create.mutate({
        username,
        role,
        password: PASSWORD,
        homeOwner: "team:ml",
      });
    await admin.groups.create.mutate({ name: "ml-operators" });
    await admin.groups.addMember.mutate({ group: "ml-operators", username: "tess" });
    await admin.roles.grant.mutate({ group: "ml-operators", role: "operator", scope: "team:ml" });
  });

  afterAll(async () => fleet?.stop());

  it("holds each role over HTTP: a viewer changes nothing, an operator cannot manage identity", async () => {
    const { api: vera } = await loginAs(server.apiUrl, "vera");
    const { api: otto } = await loginAs(server.apiUrl, "otto");
    expect(await codeOf(vera.models.list.query())).toBe("OK");
    expect(await codeOf(vera.reclaim.run.mutate({ collect: false }))).toBe("FORBIDDEN");
    expect(await codeOf(vera.keys.create.mutate({ owner: "user:vera", models: ["*"] }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(otto.people.create.mutate({ username: "x1", role: "admin" }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(otto.roles.grant.mutate({ user: "otto", role: "admin" }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(otto.audit.list.query({}))).toBe("FORBIDDEN");
    expect(await codeOf(apiClient(server.apiUrl, null).people.list.query())).toBe("UNAUTHORIZED");
  });

  it("lets an operator manage their own keys and a group's team keys, not another person's", async () => {
    const { api: otto } = await loginAs(server.apiUrl, "otto");
    const { api: tess } = await loginAs(server.apiUrl, "tess");
    const own = await otto.keys.create.mutate({ owner: "user:otto", models: ["*"] });
    expect(await codeOf(otto.keys.create.mutate({ owner: "user:vera", models: ["*"] }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(otto.keys.create.mutate({ owner: "team:ml", models: ["*"] }))).toBe(
      "FORBIDDEN",
    );
    // tess is a viewer of the cluster, and an operator of team:ml (and so of project:search) by group.
    const teamKey = await tess.keys.create.mutate({ owner: "project:search", models: ["*"] });
    expect(await codeOf(tess.keys.revoke.mutate({ id: own.view.id }))).toBe("FORBIDDEN");
    expect(await codeOf(otto.keys.revoke.mutate({ id: teamKey.view.id }))).toBe("FORBIDDEN");
    expect((await tess.keys.list.query()).map((k) => k.owner)).toContain("project:search");
    expect((await otto.keys.list.query()).map((k) => k.owner)).not.toContain("project:search");
    expect(await codeOf(tess.models.remove.mutate({ name: "nothing" }))).toBe("FORBIDDEN");
    const me = await tess.auth.me.query();
    expect(me).toMatchObject({ role: "viewer", grants: [{ role: "operator", scope: "team:ml" }] });
  });

  it("sets an httpOnly SameSite cookie and refuses changes sent from another site", async () => {
    const res = await fetch(`${server.apiUrl}/api/trpc/auth.login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.apiUrl },
      body: JSON.stringify({ username: "vera", password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie()[0] ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const session = must(cookie.split(";")[0], "a cookie pair");
    const setLocale = (origin: string) =>
      fetch(`${server.apiUrl}/api/trpc/auth.setLocale`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: session, origin },
        body: JSON.stringify({ locale: "tr" }),
      });
    const forged = await setLocale("https://evil.example");
    expect(forged.status).toBe(403);
    expect(await forged.text()).toMatch(/another site/);
    expect((await setLocale(server.apiUrl)).status).toBe(200);
  });

  it("remembers the language a person chose, on the server", async () => {
    const { api: vera } = await loginAs(server.apiUrl, "vera");
    await vera.auth.setLocale.mutate({ locale: "tr" });
    const { api: again } = await loginAs(server.apiUrl, "vera");
    expect((await again.auth.me.query()).locale).toBe("tr");
    expect(await codeOf(vera.auth.setLocale.mutate({ locale: "xx" as "tr" }))).toBe("BAD_REQUEST");
  });

  it("signs out everywhere, and a token made for the CLI works until it is revoked", async () => {
    const first = await loginAs(server.apiUrl, "otto");
    const second = await loginAs(server.apiUrl, "otto");
    const made = await first.api.auth.createToken.mutate({ label: "laptop" });
    const cli = apiClient(server.apiUrl, made.token);
    expect((await cli.auth.me.query()).username).toBe("otto");
    expect((await first.api.auth.tokens.query()).map((t) => t.label)).toEqual(["laptop"]);
    const { ended } = await second.api.auth.logoutEverywhere.mutate();
    expect(ended).toBeGreaterThanOrEqual(3);
    for (const api of [first.api, second.api, cli])
      expect(await codeOf(api.auth.me.query())).toBe("UNAUTHORIZED");
  });

  it("ends a disabled person's sessions and keeps the last admin", async () => {
    const { api: vera } = await loginAs(server.apiUrl, "vera");
    const people = await admin.people.list.query();
    const veraId = must(
      people.find((p) => p.username === "vera"),
      "vera",
    ).id;
    await admin.people.update.mutate({ id: veraId, isActive: false });
    expect(await codeOf(vera.auth.me.query())).toBe("UNAUTHORIZED");
    expect(await codeOf(loginAs(server.apiUrl, "vera"))).toBe("FORBIDDEN");
    const adminId = must(
      people.find((p) => p.username === "admin"),
      "admin",
    ).id;
    expect(await codeOf(admin.people.update.mutate({ id: adminId, role: "viewer" }))).toBe(
      "CONFLICT",
    );
    expect(await codeOf(admin.people.create.mutate({ username: "otto" }))).toBe("CONFLICT");
    // The console's "Add person" form sends an email; a malformed one is refused, not stored.
    const mail = await admin.people.create.mutate({ username: "mia", email: "mia@example.com" });
    expect(mail.email).toBe("mia@example.com");
    expect(
      await codeOf(admin.people.create.mutate({ username: "max", email: "not-an-address" })),
    ).toBe("BAD_REQUEST");
    await admin.people.remove.mutate({ id: mail.id });
    await admin.people.update.mutate({ id: veraId, isActive: true });
  });

  it("answers the org tree's chains and refuses a team without its org", async () => {
    expect(await codeOf(admin.org.create.mutate({ kind: "team", name: "lost" }))).toBe(
      "BAD_REQUEST",
    );
    expect(
      await codeOf(admin.org.create.mutate({ kind: "project", name: "p", parent: "team:nope" })),
    ).toBe("NOT_FOUND");
    expect(await codeOf(admin.org.remove.mutate({ owner: "org:acme" }))).toBe("CONFLICT");
  });

  it("writes every identity and key change to the audit log, secrets redacted", async () => {
    const entries = await admin.audit.list.query({ limit: 500 });
    const actions = new Set(entries.map((e) => e.action));
    for (const action of [
      "user.create",
      "group.create",
      "group.add-member",
      "role.grant",
      "org.create",
      "key.create",
      "user.update",
      "token.create",
      "session.end-all",
    ])
      expect(actions).toContain(action);
    const created = entries.find((e) => e.action === "user.create" && e.target === "vera");
    expect(created?.details).toMatchObject({ password: "[redacted]", role: "viewer" });
    expect(JSON.stringify(entries)).not.toContain(PASSWORD);
    const page = await admin.audit.list.query({
      limit: 2,
      beforeId: must(entries[0], "an audit entry").id,
    });
    expect(page.map((e) => e.id)).toEqual([entries[1]?.id, entries[2]?.id]);
  });
});
