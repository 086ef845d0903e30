// A model's owner (the org, team or project its replicas count against) changed in place. The
// definition's `owner` is rewritten but the revision is kept: ownership says who pays for a replica,
// not how it runs, so a new owner must never restart the replicas that serve now. The catalog is
// still swapped, so the reconciler hears of the model and plans it again against its new quotas.
import type { Actor } from "@llmgw/api";
import { catalogWith, type ModelDefinition, type OwnerRef } from "@llmgw/domain";
import { updateOwnerRow } from "./catalog-rows";
import { built, unknownModel, type Ops } from "./store-ops";

type DefinitionOwner = NonNullable<ModelDefinition["owner"]>;

function definitionOwner(owner: OwnerRef): DefinitionOwner {
  if (owner.kind === "org") return { org: owner.name };
  if (owner.kind === "team") return { team: owner.name };
  return { project: owner.name };
}

/** `owner` is an org, team or project the caller has checked exists; null clears it. */
export async function setModelOwner(
  ops: Ops,
  name: string,
  owner: OwnerRef | null,
  actor: Actor,
): Promise<void> {
  const { catalog, meta } = ops.state();
  const model = catalog.get(name);
  const entry = meta.get(name);
  if (!model || !entry) throw unknownModel(name);
  const stored = JSON.parse(JSON.stringify(model)) as Record<string, unknown>;
  if (owner) stored.owner = definitionOwner(owner);
  else delete stored.owner;
  const previous = model.owner ?? null;
  const next = built(catalogWith(catalog, structuredClone(stored)), `the owner of model "${name}"`);
  const at = new Date(ops.deps.nowMs());
  const audit = {
    actor: actor.username,
    action: "model.owner" as const,
    target: name,
    details: { owner: owner ? `${owner.kind}:${owner.name}` : null, previous },
  };
  await updateOwnerRow(ops.db, name, stored, audit, at);
  const nextMeta = new Map(meta).set(name, { ...entry, updatedAt: at, updatedBy: actor.username });
  ops.swap({ catalog: next, meta: nextMeta });
}
