// The person behind a directory sign-in, on a real PGlite store: made once and found again by
// subject, an unlinked SCIM person adopted only when the directory asks for it, a taken name
// refused, and memberships set for the directory's groups only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, groupMembers, groups, openStore, users, type Store } from "@llmgw/db";
import { tempDir } from "@llmgw/testing";
import { upsertDirectoryPerson, type DirectoryPerson } from "./directory-people";
import { SignInRefused } from "./errors";

let store: Store;

beforeAll(async () => {
  store = await openStore({ kind: "pglite", dataDir: (await tempDir("directory-people")).path });
  await store.db.insert(users).values([
    { id: "u-scim", username: "sam", source: "scim" },
    { id: "u-local", username: "lou", source: "local" },
  ]);
  await store.db.insert(groups).values([
    { id: "g-ops", name: "ops", externalId: "ext-ops" },
    { id: "g-view", name: "view", externalId: "ext-view" },
    { id: "g-local", name: "local" },
  ]);
});
afterAll(async () => store?.close());

const ada: DirectoryPerson = {
  source: "ldap",
  subject: "ldap:uid=ada,ou=people",
  username: "ada",
  displayName: "Ada",
  email: "ada@example.test",
};
const noGroups = { adoptsScimPerson: false, memberships: null };

async function groupsOf(userId: string): Promise<string[]> {
  const rows = await store.db.select().from(groupMembers).where(eq(groupMembers.userId, userId));
  return rows.map((r) => r.groupId).sort();
}

describe("upsertDirectoryPerson", () => {
  it("makes the person once and finds them again by subject, keeping a known email", async () => {
    const made = await upsertDirectoryPerson(store.db, ada, noGroups);
    expect(made).toMatchObject({ username: "ada", source: "ldap", subject: ada.subject });
    const again = await upsertDirectoryPerson(
      store.db,
      { ...ada, displayName: "Ada L.", email: null },
      noGroups,
    );
    expect(again.id).toBe(made.id);
    expect(again).toMatchObject({ displayName: "Ada L.", email: "ada@example.test" });
  });

  it("adopts an unlinked SCIM person by name only when asked, else refuses the name", async () => {
    const sam = { ...ada, source: "entra" as const, subject: "entra:t:sam", username: "sam" };
    await expect(upsertDirectoryPerson(store.db, sam, noGroups)).rejects.toThrow(SignInRefused);
    const adopted = await upsertDirectoryPerson(store.db, sam, {
      adoptsScimPerson: true,
      memberships: null,
    });
    expect(adopted).toMatchObject({ id: "u-scim", source: "scim", subject: "entra:t:sam" });
    const lou = { ...sam, subject: "entra:t:lou", username: "lou" };
    await expect(
      upsertDirectoryPerson(store.db, lou, { adoptsScimPerson: true, memberships: null }),
    ).rejects.toThrow(/the name lou belongs to another account here/);
  });

  it("sets membership of the directory's groups only; null memberships leave them", async () => {
    const [all, local] = [await store.db.select().from(groups), { groupId: "g-local" }];
    const directoryGroups = all.filter((g) => g.externalId !== null);
    const made = await upsertDirectoryPerson(store.db, ada, noGroups);
    await store.db.insert(groupMembers).values({ ...local, userId: made.id });
    const hold = (ids: string[]) => ({
      adoptsScimPerson: false,
      memberships: { groups: directoryGroups, heldIds: new Set(ids) },
    });
    await upsertDirectoryPerson(store.db, ada, hold(["g-ops", "g-view"]));
    expect(await groupsOf(made.id)).toEqual(["g-local", "g-ops", "g-view"]);
    await upsertDirectoryPerson(store.db, ada, hold(["g-view"]));
    expect(await groupsOf(made.id)).toEqual(["g-local", "g-view"]);
    await upsertDirectoryPerson(store.db, ada, noGroups);
    expect(await groupsOf(made.id)).toEqual(["g-local", "g-view"]);
  });
});
