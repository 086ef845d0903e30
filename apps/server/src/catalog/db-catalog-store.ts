// The catalog kept in the store. Every change is written (with its audit row) first and swapped in
// after, so a failed write leaves the current catalog exactly as it was; writes run one at a time,
// so two edits in flight cannot both start from the same catalog and lose one of them.
import { ServiceError, type Actor, type RefusalInit } from "@llmgw/api";
import type { Database } from "@llmgw/db";
import {
  catalogWith,
  catalogWithout,
  checkOutboundUrl,
  createCatalog,
  externalKeyFiles,
  parseModelDefinition,
  type Catalog,
  type ModelDefinition,
  messageOf,
} from "@llmgw/domain";
import {
  canonicalJson,
  deleteModelRow,
  loadCatalogState,
  updateFallbacksRow,
  upsertModelRow,
  type CatalogState,
} from "./catalog-rows";
import type { CatalogEntryMeta, CatalogStore } from "./catalog-store";
import { keyFileRefusal } from "../external-keys/key-files";
import { openExternalKey, setExternalKey } from "./external-key";
import { setModelOwner } from "./model-owner";
import { built, unknownModel, type CatalogStoreDeps, type Ops } from "./store-ops";

export type { CatalogStoreDeps } from "./store-ops";

type Listener = (next: Catalog, previous: Catalog) => void;

export async function openCatalogStore(
  db: Database,
  deps: CatalogStoreDeps,
): Promise<CatalogStore> {
  let state: CatalogState = await loadCatalogState(db, deps.log);
  const listeners = new Set<Listener>();
  let queue: Promise<unknown> = Promise.resolve();

  const serialised = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  const swap = (next: CatalogState): void => {
    const previous = state.catalog;
    state = next;
    for (const listener of listeners) {
      try {
        listener(next.catalog, previous);
      } catch (error) {
        // A subscriber's bug must not undo a change that is already stored.
        deps.log(
          `catalog: a subscriber failed on revision ${next.catalog.revision}: ${messageOf(error)}`,
        );
      }
    }
  };

  const ops = { db, deps, state: () => state, swap };
  return {
    current: () => state.catalog,
    meta: (name) => state.meta.get(name),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    add: (definition, actor) => serialised(() => addModel(ops, definition, actor)),
    remove: (name, actor) => serialised(() => removeModel(ops, name, actor)),
    setFallbacks: (name, fallbacks, actor) =>
      serialised(() => setModelFallbacks(ops, name, fallbacks, actor)),
    setExternalKey: (name, key, actor) => serialised(() => setExternalKey(ops, name, key, actor)),
    setOwner: (name, owner, actor) => serialised(() => setModelOwner(ops, name, owner, actor)),
    externalKey: (name) => openExternalKey(ops, name),
    reload: () =>
      serialised(async () => {
        // Models that no longer validate were reported when the store was opened.
        const next = await loadCatalogState(db, () => undefined);
        if (fingerprintOf(next) === fingerprintOf(state)) return;
        swap({
          ...next,
          catalog: Object.freeze({ ...next.catalog, revision: state.catalog.revision + 1 }),
        });
      }),
  };
}

/** What a stored catalog is, in one comparable string: each model's row revision and extras. */
function fingerprintOf(state: CatalogState): string {
  return JSON.stringify(
    [...state.meta].map(([name, meta]) => [
      name,
      meta.revision,
      meta.fallbacks,
      meta.externalKeySealed,
      meta.updatedAt.getTime(),
    ]),
  );
}

function nameOf(definition: unknown): string | null {
  const name = (definition as { name?: unknown } | null)?.name;
  return typeof name === "string" && name ? name : null;
}

function refusedName(definition: unknown): string {
  const name = nameOf(definition);
  return name ? `model "${name}"` : "the model definition";
}

function definitionRefusal(definition: unknown): RefusalInit {
  const name = nameOf(definition);
  return name ? { code: "model.refused", params: { name } } : { code: "model.definition_refused" };
}

/**
 * An external model's URL is checked when it is added, so a private or metadata address is refused
 * before it is stored (the gateway checks again before each call and at connect time).
 */
function refuseBarredUpstream(model: ModelDefinition, allowPrivate: boolean): void {
  if (!model.external) return;
  const check = checkOutboundUrl(model.external.url, allowPrivate);
  if (check.ok) return;
  const hint = allowPrivate
    ? ""
    : "; set LLMGW_ALLOW_PRIVATE_UPSTREAMS=true if this provider is meant to be private";
  const remedy =
    check.kind === "credentials"
      ? "; keep the key in the store instead (llmgw ctl model key set MODEL --key-file F)"
      : check.kind === "address"
        ? hint
        : "";
  throw new ServiceError("invalid", `external.url: ${check.why}`, {
    code: "model.upstream_barred",
    params: { reason: check.why },
    details: [`external.url: ${check.why}${remedy}`],
  });
}

/**
 * Key files are checked when the model is added, so a path outside LLMGW_KEY_FILE_DIR is never
 * stored (the gateway checks again on every read). Every refusal is listed, one per file.
 */
async function refuseKeyFilesOutside(model: ModelDefinition, dir: string | null): Promise<void> {
  if (!model.external) return;
  const files = externalKeyFiles(model.external);
  const field = model.external.api_key_files ? "external.api_key_files" : "external.api_key_file";
  const errors: string[] = [];
  for (const [index, { file }] of files.entries()) {
    const why = await keyFileRefusal(file, dir);
    if (why) errors.push(`${field}${model.external.api_key_files ? `[${index}]` : ""}: ${why}`);
  }
  if (errors.length > 0)
    throw new ServiceError("invalid", `model "${model.name}" was refused: ${errors.join("; ")}`, {
      code: "model.refused",
      params: { name: model.name },
      details: errors,
    });
}

async function addModel(ops: Ops, definition: unknown, actor: Actor): Promise<ModelDefinition> {
  const parsed = parseModelDefinition(definition);
  if (!parsed.ok) {
    throw new ServiceError(
      "invalid",
      `${refusedName(definition)} was refused: ${parsed.errors.join("; ")}`,
      { ...definitionRefusal(definition), details: parsed.errors },
    );
  }
  const model = parsed.model;
  refuseBarredUpstream(model, ops.deps.allowPrivateUpstreams === true);
  await refuseKeyFilesOutside(model, ops.deps.keyFileDir ?? null);
  const { catalog, meta } = ops.state();
  const existing = catalog.get(model.name);
  // Adding the same definition again is not a change: no new revision, so nothing restarts.
  if (existing && canonicalJson(existing) === canonicalJson(model)) return existing;

  const previousMeta = meta.get(model.name);
  const revision = (previousMeta?.revision ?? 0) + 1;
  const updatedAt = new Date(ops.deps.nowMs());
  const stored = JSON.parse(JSON.stringify(model)) as Record<string, unknown>;
  const fallbacks = previousMeta?.fallbacks ?? [];
  const next = built(catalogWith(catalog, structuredClone(stored)), refusedName(definition));
  await upsertModelRow(
    ops.db,
    {
      name: model.name,
      definition: stored,
      revision,
      fallbacks,
      updatedAt,
      updatedBy: actor.username,
    },
    {
      actor: actor.username,
      action: existing ? "model.change" : "model.add",
      target: model.name,
      details: { revision, definition: stored },
    },
  );
  const nextMeta = new Map(meta).set(model.name, {
    revision,
    fallbacks,
    updatedAt,
    updatedBy: actor.username,
    externalKeySealed: previousMeta?.externalKeySealed ?? null,
  });
  ops.swap({ catalog: next, meta: nextMeta });
  return next.get(model.name) ?? model;
}

async function removeModel(ops: Ops, name: string, actor: Actor): Promise<void> {
  const { catalog, meta } = ops.state();
  if (!catalog.get(name)) throw unknownModel(name);
  const next = built(catalogWithout(catalog, name), `removing model "${name}"`);
  // Other models stop falling back to it, so no fallback ever names a model that is gone.
  const fallbackUpdates = new Map<string, string[]>();
  for (const [other, entry] of meta) {
    if (other !== name && entry.fallbacks.includes(name)) {
      fallbackUpdates.set(
        other,
        entry.fallbacks.filter((fallback) => fallback !== name),
      );
    }
  }
  const at = new Date(ops.deps.nowMs());
  const revision = meta.get(name)?.revision ?? 0;
  const details = { revision, fallbacksUpdated: [...fallbackUpdates.keys()] };
  await deleteModelRow(
    ops.db,
    name,
    fallbackUpdates,
    { actor: actor.username, action: "model.remove", target: name, details },
    at,
  );

  const nextMeta = new Map(meta);
  nextMeta.delete(name);
  for (const [other, fallbacks] of fallbackUpdates) {
    const entry = nextMeta.get(other);
    if (entry)
      nextMeta.set(other, { ...entry, fallbacks, updatedAt: at, updatedBy: actor.username });
  }
  ops.swap({ catalog: next, meta: nextMeta });
}

function checkFallbacks(
  catalog: Catalog,
  name: string,
  fallbacks: readonly string[],
  peerModels: CatalogStoreDeps["peerModels"],
): string[] {
  const errors: string[] = [];
  for (const fallback of fallbacks) {
    if (fallback === name) errors.push(`"${name}" cannot be its own fallback`);
    else if (fallback.includes("/") && !catalog.get(fallback)) {
      if (!peerModels?.known(fallback))
        errors.push(
          `fallback "${fallback}" is no peer's model; see \`llmgw ctl federation list\` (sync the peer first)`,
        );
    } else if (!catalog.get(fallback))
      errors.push(
        `fallback "${fallback}" is not in the catalog; add it first or check the spelling`,
      );
  }
  return errors;
}

async function setModelFallbacks(
  ops: Ops,
  name: string,
  requested: string[],
  actor: Actor,
): Promise<void> {
  const { catalog, meta } = ops.state();
  const entry = meta.get(name);
  if (!catalog.get(name) || !entry) throw unknownModel(name);
  const fallbacks = [...new Set(requested.map((fallback) => fallback.trim()).filter(Boolean))];
  const errors = checkFallbacks(catalog, name, fallbacks, ops.deps.peerModels);
  if (errors.length > 0) {
    throw new ServiceError(
      "invalid",
      `fallbacks of model "${name}" were refused: ${errors.join("; ")}`,
      { code: "model.fallbacks_refused", params: { name }, details: errors },
    );
  }
  const at = new Date(ops.deps.nowMs());
  const details = { fallbacks, previous: entry.fallbacks };
  await updateFallbacksRow(
    ops.db,
    name,
    fallbacks,
    { actor: actor.username, action: "model.fallbacks", target: name, details },
    at,
  );
  // Same models, new revision: whoever routes by fallbacks learns of the change through subscribe.
  const next = built(
    createCatalog(catalog.models, catalog.revision + 1),
    `fallbacks of model "${name}"`,
  );
  const nextMeta = new Map<string, CatalogEntryMeta>(meta).set(name, {
    ...entry,
    fallbacks,
    updatedAt: at,
    updatedBy: actor.username,
  });
  ops.swap({ catalog: next, meta: nextMeta });
}
