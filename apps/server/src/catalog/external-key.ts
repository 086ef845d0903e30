// An external model's provider key kept sealed in the store, so no key file is needed: sealed
// under the master key with the model's name bound in (a sealed key copied onto another model's
// row does not open), opened only when a request goes to the provider, never answered by the API
// and never written to the audit log.
import { ServiceError, type Actor } from "@llmgw/api";
import { SealError, seal, unseal } from "../seal/seal";
import { updateExternalKeyRow } from "./catalog-rows";
import { unknownModel, type Ops } from "./store-ops";

const sealName = (model: string) => `model-key:${model}`;
/** Longer than any provider key; a whole file pasted by mistake is refused, not sealed. */
const KEY_CHARS_MAX = 4_096;

function checkedKey(model: string, key: string): string {
  const trimmed = key.trim();
  if (trimmed === "")
    throw new ServiceError(
      "invalid",
      `the key for model "${model}" is empty; give the provider's key`,
      { code: "model.key_empty", params: { name: model } },
    );
  if (trimmed.length > KEY_CHARS_MAX || /[\r\n]/.test(trimmed))
    throw new ServiceError(
      "invalid",
      `the key for model "${model}" must be one line of at most ${KEY_CHARS_MAX} characters; give the file holding only the provider's key`,
      { code: "model.key_too_long", params: { name: model, chars: KEY_CHARS_MAX } },
    );
  return trimmed;
}

export async function setExternalKey(
  ops: Ops,
  name: string,
  key: string | null,
  actor: Actor,
): Promise<void> {
  const { catalog, meta } = ops.state();
  const model = catalog.get(name);
  const entry = meta.get(name);
  if (!model || !entry) throw unknownModel(name);
  if (!model.external)
    throw new ServiceError(
      "invalid",
      `model "${name}" is served by the fleet, not by a provider; only external models take a provider key`,
      { code: "model.key_not_external", params: { name } },
    );
  const sealed =
    key === null
      ? null
      : seal(ops.deps.masterKey, sealName(name), Buffer.from(checkedKey(name, key), "utf8"));
  const at = new Date(ops.deps.nowMs());
  await updateExternalKeyRow(
    ops.db,
    name,
    sealed,
    {
      actor: actor.username,
      action: "model.key",
      target: name,
      details: { isSet: sealed !== null },
    },
    at,
  );
  const nextMeta = new Map(meta).set(name, {
    ...entry,
    externalKeySealed: sealed,
    updatedAt: at,
    updatedBy: actor.username,
  });
  ops.swap({ catalog, meta: nextMeta });
}

export function openExternalKey(ops: Ops, name: string): string | null {
  const sealed = ops.state().meta.get(name)?.externalKeySealed ?? null;
  if (sealed === null) return null;
  try {
    return unseal(ops.deps.masterKey, sealName(name), sealed).toString("utf8");
  } catch (error) {
    if (!(error instanceof SealError)) throw error;
    ops.deps.log(`catalog: the sealed key of model "${name}" does not open: ${error.message}`);
    return null;
  }
}
