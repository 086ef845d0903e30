// `llmgw dev` starts with something to look at: on a first run (an empty catalog) it adds the
// simulated presets through the API as the admin, exactly as `llmgw ctl model add PRESET` would.
import { createApiClient, signInWithPassword } from "./ctl/client";

/** Simulated models that place on the dev fleet: one on CPU nodes, one on a GPU. */
const DEV_PRESETS = ["sim-chat", "sim-gpu-chat"] as const;

export interface DevModels {
  /** Presets added by this run (empty when the catalog already had models). */
  added: string[];
  /** Every model in the catalog afterwards. */
  models: string[];
  /** A /v1 key made for the admin by this run; null when one was not asked for. */
  apiKey: string | null;
}

/** How long the presets wait for the fleet to join before they are added anyway. */
const FLEET_WAIT_MS = 120_000;

export async function seedDevModels(
  apiUrl: string,
  username: string,
  password: string,
  needsApiKey: boolean,
  fleet: readonly string[] = [],
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
    await waitForFleet(api, fleet);
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

/** Resolves once every named node is ready, or after FLEET_WAIT_MS: a slow agent delays nothing long. */
async function waitForFleet(
  api: ReturnType<typeof createApiClient>,
  fleet: readonly string[],
): Promise<void> {
  const deadline = Date.now() + FLEET_WAIT_MS;
  while (Date.now() < deadline) {
    const ready = new Set(
      (await api.nodes.list.query()).filter((n) => n.state === "ready").map((n) => n.name),
    );
    if (fleet.every((name) => ready.has(name))) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
