// Which keys a person may see: an admin sees every key, anyone else the keys of owners they hold
// at least the viewer role on (through the org → team → project tree).
import { holdsOn, type OwnershipResolver } from "@llmgw/domain";
import type { UserView } from "../auth/schemas";
import type { KeyView } from "./schemas";

export async function visibleKeys(
  keys: KeyView[],
  user: UserView,
  ownership: OwnershipResolver,
): Promise<KeyView[]> {
  if (user.role === "admin") return keys;
  // Many keys share an owner: resolve each owner's place in the tree once.
  const owners = [...new Set(keys.map((key) => key.owner))];
  const chains = await Promise.all(owners.map((owner) => ownership.chain(owner)));
  const visible = new Set(
    owners.filter((_, index) => holdsOn(user, "viewer", chains[index] ?? [])),
  );
  return keys.filter((key) => visible.has(key.owner));
}
