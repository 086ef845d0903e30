// What `llmgw dev` wrote to dev.json, as global-setup passed it on.
export interface DevFacts {
  consoleUrl: string;
  apiUrl: string;
  /** The agent port (`wss://…`), where nodes join. */
  agentUrl: string;
  adminUser: string;
  adminPassword: string;
  /** The /v1 key `llmgw dev` made for the admin. */
  apiKey: string | null;
}

export function devFacts(): DevFacts {
  const raw = process.env.LLMGW_E2E_FACTS;
  if (!raw)
    throw new Error("LLMGW_E2E_FACTS is not set: run through playwright.config.ts (global-setup)");
  return JSON.parse(raw) as DevFacts;
}

export const ARTIFACTS = new URL("../artifacts/", import.meta.url).pathname;

/** The admin's saved browser session (storage state), beside Playwright's other results. */
export const ADMIN_SESSION_PATH = new URL(
  "../../test-results/playwright-session/admin.json",
  import.meta.url,
).pathname;
