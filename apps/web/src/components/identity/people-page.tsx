"use client";
// People: everyone who may sign in (local, Entra ID, AD, SCIM) with their roles, groups and grants;
// the groups with the roles they carry; the role grants; and the org → team → project tree. Admins
// change all of it here (or from the CLI); everyone else signed in reads it, without edit controls.
// The control plane enforces the same rule on every write, so hiding a control is a courtesy.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";
import { GrantsSection } from "./grants-section";
import { GroupsSection } from "./groups-section";
import { OrgTreeSection } from "./org-tree-section";
import { PeopleSection } from "./people-section";
import { useIdentityWrites } from "./use-identity-writes";

export function PeoplePage() {
  const trpc = useTRPC();
  const writes = useIdentityWrites();
  const me = useQuery(trpc.auth.me.queryOptions());
  const people = useQuery(trpc.people.list.queryOptions());
  const groups = useQuery(trpc.groups.list.queryOptions());
  const units = useQuery(trpc.org.list.queryOptions());
  const bindings = useQuery(trpc.roles.list.queryOptions());
  const canEdit = me.data?.role === "admin";
  const failed = [people, groups, units, bindings].find((q) => q.isError && !q.data);
  if (failed) return <ErrorPanel error={failed.error} onRetry={() => void failed.refetch()} />;
  return (
    <section className="page" data-testid="people-page">
      <PeopleSection
        people={people.data ?? []}
        isLoading={people.isPending}
        canEdit={canEdit}
        isReadOnly={me.data !== undefined && !canEdit}
        writes={writes}
      />
      <GroupsSection
        groups={groups.data ?? []}
        people={people.data ?? []}
        canEdit={canEdit}
        writes={writes}
      />
      <GrantsSection
        bindings={bindings.data ?? []}
        people={people.data ?? []}
        groups={groups.data ?? []}
        units={units.data ?? []}
        canEdit={canEdit}
        writes={writes}
      />
      <OrgTreeSection units={units.data ?? []} canEdit={canEdit} writes={writes} />
    </section>
  );
}
