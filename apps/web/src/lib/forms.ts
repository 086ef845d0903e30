// Form text → API input for the console's small forms (a key's limits, a model's fallbacks). The
// control plane's zod schemas still judge the result; these only split and trim what was typed.
import type { CreateKeyInput, KeyView, OrgUnitView } from "@llmgw/api";

export interface KeyFormState {
  owner: string;
  models: string;
  rpm: string;
  tpm: string;
  concurrent: string;
  /** 0 for a key that never expires. */
  expiresDays: number;
  /** residency: local — the key's requests never go to a peer cluster. */
  staysLocal: boolean;
  /** no_store: what the key sends is never kept outside this cluster (never sent to a peer). */
  noStore: boolean;
}

export function commaList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/** An empty box means "no limit"; anything else goes to the server as typed, to be judged there. */
function optionalCount(text: string): number | undefined {
  return text.trim() === "" ? undefined : Number(text.trim());
}

export function keyInput(form: KeyFormState): CreateKeyInput {
  return {
    owner: form.owner.trim(),
    models: commaList(form.models),
    requestsPerMinute: optionalCount(form.rpm),
    tokensPerMinute: optionalCount(form.tpm),
    concurrentMax: optionalCount(form.concurrent),
    residency: form.staysLocal ? "local" : undefined,
    noStore: form.noStore ? true : undefined,
    expiresInSeconds: form.expiresDays === 0 ? undefined : form.expiresDays * 86_400,
  };
}

export const KEY_NUMBER_FIELDS = ["rpm", "tpm", "concurrent"] as const;
export type KeyNumberField = (typeof KEY_NUMBER_FIELDS)[number];

/** The limit boxes holding something other than a whole number of at least 1 (empty is fine). */
export function badKeyNumbers(form: KeyFormState): KeyNumberField[] {
  return KEY_NUMBER_FIELDS.filter((field) => {
    const text = form[field].trim();
    return text !== "" && !(/^\d+$/.test(text) && Number(text) >= 1);
  });
}

/**
 * Owners to offer for a new key: the person themselves first, then the org tree's units, then
 * owners that keys already have; each once.
 */
export function knownKeyOwners(
  username: string | null,
  units: readonly OrgUnitView[],
  keys: readonly Pick<KeyView, "owner">[],
): string[] {
  const others = [...units.map((u) => `${u.kind}:${u.name}`), ...keys.map((k) => k.owner)];
  const self = username ? [`user:${username}`] : [];
  return [...new Set([...self, ...others.sort((a, b) => a.localeCompare(b))])];
}
