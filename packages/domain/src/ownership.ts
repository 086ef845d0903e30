// Who owns things: keys, grants and limits hang off an org → team → project tree, or a person.
// Owners travel as strings (`org:acme`, `team:ml`, `project:search`, `user:ada`); this module is
// the one place that reads and writes them.

export const OWNER_KINDS = ["org", "team", "project", "user"] as const;
export type OwnerKind = (typeof OWNER_KINDS)[number];

export interface OwnerRef {
  kind: OwnerKind;
  name: string;
}

const OWNER_PATTERN = /^(org|team|project|user):([A-Za-z0-9._@-]{1,100})$/;

/** Reads `team:ml`; null for anything else (no kind, unknown kind, empty or odd name). */
export function parseOwner(text: string): OwnerRef | null {
  const [, kind, name] = OWNER_PATTERN.exec(text.trim()) ?? [];
  if (kind === undefined || name === undefined) return null;
  return { kind: kind as OwnerKind, name };
}

export function formatOwner(owner: OwnerRef): string {
  return `${owner.kind}:${owner.name}`;
}

/**
 * The levels an owner sits under, from the top of the tree down to the owner itself
 * (`["org:acme", "team:ml", "project:search"]` for `project:search`). A person's chain ends in
 * `user:NAME` under the org, team or project they belong to. Unknown owners resolve to themselves.
 */
export interface OwnershipResolver {
  chain(owner: string): Promise<string[]>;
}

/** A resolver for a fleet without an ownership tree: every owner stands alone. */
export const flatOwnership: OwnershipResolver = {
  chain: (owner) => Promise.resolve([owner]),
};
