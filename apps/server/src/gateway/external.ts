// What calling an external provider needs beyond a replica: its key (sealed in the store, or read
// from a file inside LLMGW_KEY_FILE_DIR on every use), and the agent whose every connection is
// checked by the outbound guard, so a provider's name that resolves inside is refused too.
import type { Agent } from "undici";
import { readKeyFile, type KeyRead } from "../external-keys/key-files";
import { createGuardedAgent } from "../outbound/guarded-agent";
import type { ExternalTarget } from "./endpoints";

export function createExternalAgent(allowPrivate: boolean): Agent {
  return createGuardedAgent({
    allowPrivate,
    who: "external models",
    hint: allowPrivate ? "" : " (LLMGW_ALLOW_PRIVATE_UPSTREAMS=true allows private providers)",
  });
}

export interface ExternalKeyDeps {
  /** LLMGW_KEY_FILE_DIR: the one directory key files may come from; null: none may. */
  keyFileDir: string | null;
  /** The model's key sealed in the store, opened now; null when none is set. */
  sealedKey(model: string): string | null;
}

/** The provider key for an endpoint: the sealed key, or its key file read (and judged) now. */
export async function externalKeyOf(
  deps: ExternalKeyDeps,
  model: string,
  target: ExternalTarget,
): Promise<KeyRead> {
  if (target.keyFile !== null) return readKeyFile(target.keyFile, deps.keyFileDir);
  const key = deps.sealedKey(model);
  return key === null
    ? {
        ok: false,
        why: `model "${model}" has no key: set one with llmgw ctl model key set ${model} --key-file F`,
      }
    : { ok: true, key };
}
