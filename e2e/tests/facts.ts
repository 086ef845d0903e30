// What `llmgw dev` wrote to dev.json, as global-setup passed it on.
export interface DevFacts {
  consoleUrl: string;
  apiUrl: string;
  adminUser: string;
  adminPassword: string;
  /** A /v1 key for the admin that `llmgw dev` made on its first run. */
  apiKey: string | null;
}

export function devFacts(): DevFacts {
  const raw = process.env.LLMGW_E2E_FACTS;
  if (!raw)
    throw new Error("LLMGW_E2E_FACTS is not set: run through playwright.config.ts (global-setup)");
  return JSON.parse(raw) as DevFacts;
}

export const ARTIFACTS = new URL("../artifacts/", import.meta.url).pathname;
