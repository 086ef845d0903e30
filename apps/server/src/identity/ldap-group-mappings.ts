// Directory groups mapped to roles: the settings' group → role mappings become llmgw groups
// standing for the directory group (source ldap, externalId = DN), each holding its mapped roles.
import { randomUUID } from "node:crypto";
import { and, eq, groups, roleBindings, type Database, type GroupRow } from "@llmgw/db";
import type { Actor, LdapGroupMapping } from "@llmgw/api";
import { normaliseDn } from "./ldap-filters";
import { must } from "@llmgw/domain";

/** Groups standing for an AD group: llmgw groups whose externalId is a DN. */
export async function directoryGroups(
  db: Database,
): Promise<(GroupRow & { externalId: string })[]> {
  const rows = await db.select().from(groups);
  return rows.filter(
    (g): g is GroupRow & { externalId: string } =>
      g.externalId !== null && /^[a-z][\w-]*=/i.test(g.externalId),
  );
}

/**
 * Makes the settings' group → role mappings true: one llmgw group (source ldap, externalId = DN)
 * per mapped DN, holding exactly the mapped role; groups of source ldap no longer mapped go.
 */
export async function applyGroupMappings(
  db: Database,
  mappings: readonly LdapGroupMapping[],
  actor: Actor,
): Promise<void> {
  const byDn = new Map<string, LdapGroupMapping[]>();
  for (const m of mappings)
    byDn.set(normaliseDn(m.dn), [...(byDn.get(normaliseDn(m.dn)) ?? []), m]);
  const existing = await db.select().from(groups).where(eq(groups.source, "ldap"));
  for (const group of existing) {
    if (group.externalId && byDn.has(normaliseDn(group.externalId))) continue;
    await db
      .delete(roleBindings)
      .where(and(eq(roleBindings.subjectKind, "group"), eq(roleBindings.subjectId, group.id)));
    await db.delete(groups).where(eq(groups.id, group.id));
  }
  const all = await db.select().from(groups);
  for (const [dn, list] of byDn) {
    let group = all.find((g) => g.externalId !== null && normaliseDn(g.externalId) === dn);
    if (!group) {
      const externalId = must(list[0], `a mapping for ${dn}`).dn;
      const cn = /^[^=]+=([^,]+)/.exec(externalId)?.[1]?.trim() ?? dn;
      let name = `ad:${cn.toLowerCase().replace(/\s+/g, "-")}`;
      for (let n = 2; all.some((g) => g.name === name); n += 1) name = `ad:${cn}-${n}`;
      const [inserted] = await db
        .insert(groups)
        .values({ id: randomUUID(), name, source: "ldap", externalId })
        .returning();
      group = must(inserted, `the inserted group ${name}`);
      all.push(group);
    }
    const id = group.id;
    await db
      .delete(roleBindings)
      .where(and(eq(roleBindings.subjectKind, "group"), eq(roleBindings.subjectId, id)));
    for (const m of list)
      await db
        .insert(roleBindings)
        .values({
          id: randomUUID(),
          subjectKind: "group",
          subjectId: id,
          role: m.role,
          scope: m.scope,
          createdBy: actor.username,
        })
        .onConflictDoNothing();
  }
}

/** The llmgw group names of the mappings, in the settings' order. */
export async function mappedGroups(db: Database, mappings: readonly LdapGroupMapping[]) {
  const rows = await directoryGroups(db);
  return mappings.map((mapping) => ({
    mapping,
    group:
      rows.find((g) => normaliseDn(g.externalId) === normaliseDn(mapping.dn))?.name ?? mapping.dn,
  }));
}
