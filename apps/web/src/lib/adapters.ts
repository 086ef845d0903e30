// A model's LoRA adapters as the console edits them: read from the stored definition, and the
// definition sent back with one added or removed. The control plane checks the result with the
// catalog's one schema, so the browser only keeps the list's shape.

export interface AdapterRow {
  name: string;
  source: string;
  rank?: number;
}

export function adaptersOf(definition: Record<string, unknown>): AdapterRow[] {
  return Array.isArray(definition.adapters) ? (definition.adapters as AdapterRow[]) : [];
}

export function withAdapter(
  definition: Record<string, unknown>,
  adapter: AdapterRow,
): Record<string, unknown> {
  return { ...definition, adapters: [...adaptersOf(definition), adapter] };
}

export function withoutAdapter(
  definition: Record<string, unknown>,
  name: string,
): Record<string, unknown> {
  return {
    ...definition,
    adapters: adaptersOf(definition).filter((adapter) => adapter.name !== name),
  };
}

/** The rank field's text: empty is "not given"; anything else is sent for the server to check. */
export function rankOf(text: string): number | undefined {
  return text.trim() === "" ? undefined : Number(text);
}
