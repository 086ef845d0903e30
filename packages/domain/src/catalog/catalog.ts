// A catalog is the set of models the cluster should serve, as one immutable value. The server
// keeps a reference to the current one and swaps it whole on a change, so a reader that took
// the reference finishes against a consistent set instead of racing an edit.
import { parseModelDefinition, type ModelDefinition } from "./model-definition";

export interface Catalog {
  readonly models: readonly ModelDefinition[];
  /** Bumped on every change, so a reader can tell two catalogs apart without comparing them. */
  readonly revision: number;
  get(name: string): ModelDefinition | undefined;
}

export type CatalogResult = { ok: true; catalog: Catalog } | { ok: false; errors: string[] };

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function freezeCatalog(models: ModelDefinition[], revision: number): Catalog {
  const byName = new Map(models.map((model) => [model.name, model]));
  return Object.freeze({
    models: deepFreeze([...models].sort((a, b) => a.name.localeCompare(b.name, "en"))),
    revision,
    get: (name: string) => byName.get(name),
  });
}

/**
 * The only way to build a catalog: every definition is parsed by the model schema, and the set
 * is refused whole if any is invalid or two share a name, so a current catalog is always valid.
 */
export function createCatalog(inputs: readonly unknown[], revision = 1): CatalogResult {
  const errors: string[] = [];
  const models: ModelDefinition[] = [];
  const seen = new Set<string>();
  inputs.forEach((input, index) => {
    const parsed = parseModelDefinition(input);
    if (!parsed.ok) {
      const label = modelLabel(input, index);
      errors.push(...parsed.errors.map((error) => `${label}: ${error}`));
      return;
    }
    if (seen.has(parsed.model.name)) {
      errors.push(`model "${parsed.model.name}" is defined twice; remove one or rename it`);
      return;
    }
    seen.add(parsed.model.name);
    models.push(parsed.model);
  });
  return errors.length > 0
    ? { ok: false, errors }
    : { ok: true, catalog: freezeCatalog(models, revision) };
}

function modelLabel(input: unknown, index: number): string {
  const name = (input as { name?: unknown } | null)?.name;
  return typeof name === "string" ? `model "${name}"` : `model #${index + 1}`;
}

export const EMPTY_CATALOG: Catalog = freezeCatalog([], 0);

/** A new catalog with `input` added, or replacing the model of the same name. */
export function catalogWith(catalog: Catalog, input: unknown): CatalogResult {
  const name = (input as { name?: unknown } | null)?.name;
  const others = catalog.models.filter((model) => model.name !== name);
  return createCatalog([...others, input], catalog.revision + 1);
}

/** A new catalog without the model, or an error naming it when it was not there. */
export function catalogWithout(catalog: Catalog, name: string): CatalogResult {
  if (!catalog.get(name)) return { ok: false, errors: [`model "${name}" is not in the catalog`] };
  const others = catalog.models.filter((model) => model.name !== name);
  return createCatalog(others, catalog.revision + 1);
}
