// Roles and where they hold. A person holds a role directly (cluster-wide) and through grants on
// the cluster (`*`) or on one org, team or project, given to them or to a group they are in.
// These functions decide; the server gathers the grants and the owner chains.

export const ROLE_NAMES = ["viewer", "operator", "admin"] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/** `*` is the whole cluster; anything else is an owner string such as `team:ml`. */
export const CLUSTER_SCOPE = "*";

export interface RoleGrant {
  role: RoleName;
  scope: string;
}

export function roleRank(role: RoleName): number {
  return ROLE_NAMES.indexOf(role);
}

export function atLeast(role: RoleName | null, wanted: RoleName): boolean {
  return role !== null && roleRank(role) >= roleRank(wanted);
}

/**
 * The cluster-wide role: the highest of the direct role and cluster grants. Someone who holds a
 * role only on a team or project may still look at the cluster, so they are a viewer here.
 * Null means no role at all, and such a person may not sign in.
 */
export function clusterRole(
  direct: RoleName | null,
  grants: readonly RoleGrant[],
): RoleName | null {
  let best: RoleName | null = direct;
  for (const grant of grants) {
    const role = grant.scope === CLUSTER_SCOPE ? grant.role : "viewer";
    if (!atLeast(best, role)) best = role;
  }
  return best;
}

/**
 * Whether a person holds `wanted` (or more) on something whose owner chain is `chain` (top first).
 * Cluster admins hold everything. A cluster operator does not by that alone hold a team's things:
 * the team has to be granted, or the thing has to be the person's own (`user:NAME`). Things
 * another person owns are held only by cluster admins.
 */
export function holdsOn(
  person: { username: string; role: RoleName | null; grants: readonly RoleGrant[] },
  wanted: RoleName,
  chain: readonly string[],
): boolean {
  if (person.role === "admin") return true;
  const last = chain[chain.length - 1] ?? "";
  if (last === `user:${person.username}`) return atLeast(person.role, wanted);
  // Another person's own things stay theirs: a team's operator does not hold its members' keys.
  if (last.startsWith("user:")) return false;
  return person.grants.some(
    (grant) =>
      grant.scope !== CLUSTER_SCOPE && chain.includes(grant.scope) && atLeast(grant.role, wanted),
  );
}
