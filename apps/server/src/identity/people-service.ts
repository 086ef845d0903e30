// The PeopleService: people, groups, the ownership tree and grants, each half in its own module.
import { asc, groups, users, type Database } from "@llmgw/db";
import type { PeopleService } from "@llmgw/api";
import {
  createGroup,
  createPerson,
  groupView,
  personView,
  removeGroup,
  removePerson,
  setMember,
  signOutPerson,
  updatePerson,
} from "./people";
import {
  createUnit,
  grantRole,
  listBindings,
  listUnits,
  removeUnit,
  revokeGrant,
} from "./org-tree";

export function createPeopleService(db: Database): PeopleService {
  return {
    async list() {
      const rows = await db.select().from(users).orderBy(asc(users.username));
      return Promise.all(rows.map((row) => personView(db, row)));
    },
    create: (input, actor) => createPerson(db, input, actor),
    update: (input, actor) => updatePerson(db, input, actor),
    remove: (id, actor) => removePerson(db, id, actor),
    signOut: (id, actor) => signOutPerson(db, id, actor),
    async groups() {
      const rows = await db.select().from(groups).orderBy(asc(groups.name));
      return Promise.all(rows.map((row) => groupView(db, row)));
    },
    createGroup: (input, actor) => createGroup(db, input, actor),
    removeGroup: (id, actor) => removeGroup(db, id, actor),
    addMember: (group, username, actor) => setMember(db, group, username, true, actor),
    removeMember: (group, username, actor) => setMember(db, group, username, false, actor),
    units: () => listUnits(db),
    createUnit: (input, actor) => createUnit(db, input, actor),
    removeUnit: (owner, actor) => removeUnit(db, owner, actor),
    bindings: () => listBindings(db),
    grant: (input, actor) => grantRole(db, input, actor),
    revokeGrant: (id, actor) => revokeGrant(db, id, actor),
  };
}
