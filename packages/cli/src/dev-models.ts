// `llmgw dev` starts with something to look at: on a first run (an empty catalog) it adds the
// simulated presets through the API as the admin, exactly as `llmgw ctl model add PRESET` would.
import { createApiClient, signInWithPassword } from "./ctl/client";

/** Simulated models that place on the dev fleet: one on CPU nodes, one on a GPU. */
export const DEV_PRESETS = ["sim-chat", "sim-gpu-chat"] as const;

export interface DevModels {
  /** Presets added by this run (empty when the catalog already had models). */
  added: string[];
  /** Every model in the catalog afterwards. */
  models: string[];
  /** A /v1 key made for the admin by this run; null when one was not asked for. */
  apiKey: string | null;
}

export async function seedDevModels(
  apiUrl: string,
  username: string,
  password: string,
  needsApiKey: boolean,
): Promise<DevModels> {
  const { token } = await signInWithPassword(apiUrl, username, password);
  const api = createApiClient(apiUrl, token);
  try {
    // The demo key opens every model; a real deployment makes narrower ones with `llmgw ctl keys create`.
    const apiKey = needsApiKey
      ? (await api.keys.create.mutate({ owner: `user:${username}`, models: ["*"] })).key
      : null;
    const existing = await api.models.list.query();
    if (existing.length > 0)
      return { added: [], models: existing.map((model) => model.name), apiKey };
    // One after the other, so a refusal names the preset that caused it.
    for (const preset of DEV_PRESETS) await api.models.add.mutate({ preset });
    return {
      added: [...DEV_PRESETS],
      models: (await api.models.list.query()).map((model) => model.name),
      apiKey,
    };
  } finally {
    await api.auth.logout.mutate().catch(() => undefined);
  }
}
