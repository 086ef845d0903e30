// Form text → API input for the console's small forms (a key's limits, a model's fallbacks). The
// control plane's zod schemas still judge the result; these only split and trim what was typed.
import type { CreateKeyInput } from "@llmgw/api";

export interface KeyFormState {
  owner: string;
  models: string;
  rpm: string;
  tpm: string;
  concurrent: string;
  /** 0 for a key that never expires. */
  expiresDays: number;
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
    expiresInSeconds: form.expiresDays === 0 ? undefined : form.expiresDays * 86_400,
  };
}
