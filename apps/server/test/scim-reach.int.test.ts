// What a leaked SCIM token can reach (issue 12, item 2): the requests an attacker holding it would
// send against the local admin, a local group that holds `admin`, and a local viewer. SCIM must see
// and change only the people and groups it made; everything else answers 404, is left out of every
// list, or is refused as a member by name — and nobody gains a role through a group SCIM did not make.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFleet, type Api, type Fleet, type ServerHandle } from "./harness";

interface ListBody {
  totalResults: number;
  Resources: { id: string; userName?: string; displayName?: string; members?: unknown[] }[];
}

describe("SCIM token against what SCIM did not make", () => {
  let fleet: Fleet;
  let server: ServerHandle;
  let admin: Api;
  let token: string;
  let adminId: string;
  let viewerId: string;
  let localGroupId: string;

  const scim = (method: string, path: string, body?: unknown) =>
    fetch(`${server.apiUrl}/scim/v2${path}`, {
      method,
      headers: { "content-type": "application/scim+json", authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const json = async <T>(res: Response) => (await res.json()) as T;
  const person = async (name: string) =>
    (await admin.people.list.query()).find((p) => p.username === name);

  beforeAll(async () => {
    fleet = await startFleet();
    ({ server, api: admin } = fleet);
    token = (await admin.signIn.rotateScimToken.mutate()).token;
    adminId = (await admin.auth.me.query()).id;
    viewerId = (await admin.people.create.mutate({ username: "vic", role: "viewer" })).id;
    localGroupId = (await admin.groups.create.mutate({ name: "ops-admins" })).id;
    await admin.roles.grant.mutate({ group: "ops-admins", role: "admin" });
  });

  afterAll(async () => fleet?.stop());

  it("does not list or find the local admin, by list, filter or id", async () => {
    const all = await json<ListBody>(await scim("GET", "/Users"));
    expect(all.Resources.map((r) => r.id)).not.toContain(adminId);
    expect(all.Resources.map((r) => r.id)).not.toContain(viewerId);
    const filtered = await json<ListBody>(await scim("GET", `/Users?filter=userName eq "admin"`));
    expect(filtered).toMatchObject({ totalResults: 0, Resources: [] });
    const byId = await json<ListBody>(await scim("GET", `/Users?filter=id eq "${adminId}"`));
    expect(byId.totalResults).toBe(0);
    expect((await scim("GET", `/Users/${adminId}`)).status).toBe(404);
  });

  it("cannot disable, rename, replace or delete the local admin", async () => {
    const disable = await scim("PATCH", `/Users/${adminId}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect(disable.status).toBe(404);
    const rename = await scim("PATCH", `/Users/${adminId}`, {
      Operations: [{ op: "Replace", path: "userName", value: "gone" }],
    });
    expect(rename.status).toBe(404);
    const replace = await scim("PUT", `/Users/${adminId}`, { userName: "gone", active: false });
    expect(replace.status).toBe(404);
    expect((await scim("DELETE", `/Users/${adminId}`)).status).toBe(404);
    expect(await admin.auth.me.query()).toMatchObject({ username: "admin", role: "admin" });
    expect(await person("admin")).toMatchObject({ isActive: true, directRole: "admin" });
  });

  it("refuses to take a local name, saying only that it is taken", async () => {
    const res = await scim("POST", "/Users", { userName: "admin", active: true });
    expect(res.status).toBe(409);
    const text = await res.text();
    expect(text).toMatch(/userName admin belongs to an account provisioning does not manage/);
    expect(text).not.toContain(adminId);
  });

  it("cannot see a local group, nor add anyone to it", async () => {
    const mallory = await json<{ id: string }>(
      await scim("POST", "/Users", { userName: "mallory", active: true }),
    );
    const groupsSeen = await json<ListBody>(await scim("GET", "/Groups"));
    expect(groupsSeen.Resources.map((r) => r.id)).not.toContain(localGroupId);
    const named = await scim("GET", `/Groups?filter=displayName eq "ops-admins"`);
    expect((await json<ListBody>(named)).totalResults).toBe(0);
    expect((await scim("GET", `/Groups/${localGroupId}`)).status).toBe(404);
    for (const member of [viewerId, mallory.id]) {
      const add = await scim("PATCH", `/Groups/${localGroupId}`, {
        Operations: [{ op: "Add", path: "members", value: [{ value: member }] }],
      });
      expect(add.status).toBe(404);
    }
    const put = await scim("PUT", `/Groups/${localGroupId}`, {
      displayName: "ops-admins",
      members: [{ value: viewerId }],
    });
    expect(put.status).toBe(404);
    expect((await scim("DELETE", `/Groups/${localGroupId}`)).status).toBe(404);
    const group = (await admin.groups.list.query()).find((g) => g.id === localGroupId);
    expect(group?.members).toEqual([]);
    expect((await person("vic"))?.role).toBe("viewer");
    expect((await person("mallory"))?.role).toBeNull();
  });

  it("refuses a local person or a local group as a member of its own group, by name", async () => {
    const made = await scim("POST", "/Groups", {
      displayName: "scim-admins",
      members: [{ value: viewerId }],
    });
    expect(made.status).toBe(400);
    expect(await made.text()).toContain(viewerId);
    const group = await json<{ id: string }>(
      await scim("POST", "/Groups", { displayName: "scim-admins" }),
    );
    // An admin grants the provisioned group admin; SCIM still cannot bring a local viewer into it.
    await admin.roles.grant.mutate({ group: "scim-admins", role: "admin" });
    for (const member of [viewerId, localGroupId, adminId]) {
      const add = await scim("PATCH", `/Groups/${group.id}`, {
        Operations: [{ op: "Add", path: "members", value: [{ value: member }] }],
      });
      expect(add.status).toBe(400);
      expect(await add.text()).toContain(member);
    }
    const put = await scim("PUT", `/Groups/${group.id}`, {
      displayName: "scim-admins",
      members: [{ value: viewerId }],
    });
    expect(put.status).toBe(400);
    expect((await person("vic"))?.role).toBe("viewer");
  });

  it("leaves a local member an admin put into a provisioned group, and does not show them", async () => {
    const group = await json<{ id: string }>(
      await scim("POST", "/Groups", { displayName: "ml-team" }),
    );
    await admin.groups.addMember.mutate({ group: "ml-team", username: "vic" });
    const seen = await json<{ members: unknown[] }>(await scim("GET", `/Groups/${group.id}`));
    expect(seen.members).toEqual([]);
    await scim("PATCH", `/Groups/${group.id}`, {
      Operations: [{ op: "Remove", path: `members[value eq "${viewerId}"]` }],
    });
    await scim("PATCH", `/Groups/${group.id}`, {
      Operations: [{ op: "Replace", path: "members", value: [] }],
    });
    await scim("PUT", `/Groups/${group.id}`, { displayName: "ml-team", members: [] });
    const after = (await admin.groups.list.query()).find((g) => g.id === group.id);
    expect(after?.members).toEqual(["vic"]);
  });

  it("cannot disable the last active admin, even one it provisioned", async () => {
    const made = await json<{ id: string }>(
      await scim("POST", "/Users", { userName: "pat", active: true }),
    );
    await admin.people.update.mutate({ id: made.id, role: "admin" });
    await admin.people.update.mutate({ id: adminId, isActive: false });
    const disable = await scim("PATCH", `/Users/${made.id}`, {
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect(disable.status).toBe(409);
    expect(await disable.text()).toMatch(/last active admin/);
    expect((await scim("DELETE", `/Users/${made.id}`)).status).toBe(409);
    const pat = await json<{ active: boolean }>(await scim("GET", `/Users/${made.id}`));
    expect(pat.active).toBe(true);
  });
});
