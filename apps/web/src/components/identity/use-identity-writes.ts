// Every change on People goes through one of these. People, groups, grants and the org tree show
// each other (a removed project takes its grants along, a removed person leaves their groups), so
// each write refreshes all four lists at once.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/react";

export function useIdentityWrites() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all(
      [trpc.people.pathKey(), trpc.groups.pathKey(), trpc.org.pathKey(), trpc.roles.pathKey()].map(
        (queryKey) => queryClient.invalidateQueries({ queryKey }),
      ),
    );
  const options = { onSettled: refresh };
  return {
    createPerson: useMutation(trpc.people.create.mutationOptions(options)),
    updatePerson: useMutation(trpc.people.update.mutationOptions(options)),
    removePerson: useMutation(trpc.people.remove.mutationOptions(options)),
    signOut: useMutation(trpc.people.signOut.mutationOptions(options)),
    createGroup: useMutation(trpc.groups.create.mutationOptions(options)),
    removeGroup: useMutation(trpc.groups.remove.mutationOptions(options)),
    addMember: useMutation(trpc.groups.addMember.mutationOptions(options)),
    removeMember: useMutation(trpc.groups.removeMember.mutationOptions(options)),
    createUnit: useMutation(trpc.org.create.mutationOptions(options)),
    removeUnit: useMutation(trpc.org.remove.mutationOptions(options)),
    grant: useMutation(trpc.roles.grant.mutationOptions(options)),
    revoke: useMutation(trpc.roles.revoke.mutationOptions(options)),
  };
}

export type IdentityWrites = ReturnType<typeof useIdentityWrites>;

interface MutationLike {
  submittedAt: number;
  isError: boolean;
  error: unknown;
}

/**
 * The refusal to show for a section: the error of its most recently submitted write, if that one
 * failed. An older failure is not shown once a later write went through.
 */
export function latestError(mutations: readonly MutationLike[]): unknown {
  const latest = mutations.reduce<MutationLike | null>(
    (best, m) => (m.submittedAt > (best?.submittedAt ?? 0) ? m : best),
    null,
  );
  return latest?.isError ? latest.error : null;
}

/**
 * Groups whose members come from a directory: AD sets them at each sign-in and SCIM pushes them,
 * so a change made here would be undone. Their roles are granted here like any group's, except AD
 * groups, whose roles are the group mappings on People → Sign-in (saving those rewrites them).
 */
export function isDirectoryGroup(source: string): boolean {
  return source === "ldap" || source === "scim";
}

export function rolesFromSignIn(source: string): boolean {
  return source === "ldap";
}
