// What a request's model names: a catalog model, or one of its LoRA adapters as MODEL:ADAPTER.
// An adapter is served by its base model's replicas, so routing, queues and on-demand starts go by
// the base model, while the key's allowlist, usage and metrics see the name the client sent.
import { adapterModelName, splitAdapterModelName, type ModelDefinition } from "@llmgw/domain";

export interface RequestTarget {
  /** The catalog model whose replicas serve the request. */
  model: string;
  definition: ModelDefinition;
  /** Set when the client asked for an adapter; its index in the model's list. */
  adapterIndex: number | undefined;
}

export function requestTarget(
  catalog: { get(name: string): ModelDefinition | undefined },
  requested: string,
): RequestTarget | undefined {
  const split = splitAdapterModelName(requested);
  const definition = catalog.get(split?.model ?? requested);
  if (definition === undefined) return undefined;
  if (split === undefined) return { model: definition.name, definition, adapterIndex: undefined };
  const adapterIndex = definition.adapters.findIndex((adapter) => adapter.name === split.adapter);
  return adapterIndex === -1 ? undefined : { model: definition.name, definition, adapterIndex };
}

/** Every name a client may send for the model: its own, then MODEL:ADAPTER for each adapter. */
export function servedNames(definition: ModelDefinition): string[] {
  return [
    definition.name,
    ...definition.adapters.map((adapter) => adapterModelName(definition.name, adapter.name)),
  ];
}

/**
 * llama.cpp loads a model's adapters unapplied and names none of them, so the request says which
 * to apply by its index (llama-server's per-request `lora` field). The other engines ignore the
 * field and pick the adapter by the model name, which the body keeps. A client's own `lora` is
 * never passed on to llama.cpp: it would apply an adapter the key is not allowed through the base
 * model's name (or at any scale).
 */
export function withAdapterSelection(raw: Buffer, target: RequestTarget): Buffer {
  const usesLlamaCpp = target.definition.profiles.some((profile) => profile.engine === "llamacpp");
  // Parsed whenever the model has adapters: a key can be spelt with JSON escapes ("\u006cora").
  if (!usesLlamaCpp || target.definition.adapters.length === 0) return raw;
  const { lora: _client, ...body } = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
  if (target.adapterIndex === undefined) return Buffer.from(JSON.stringify(body));
  return Buffer.from(JSON.stringify({ ...body, lora: [{ id: target.adapterIndex, scale: 1 }] }));
}
