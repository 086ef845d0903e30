// Starts `llmgw dev` (server on PGlite, console, three simulated agents) for the browser tests and
// hands its facts (console URL, admin password) to them through the environment.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, spawnLlmgw, tempDir, waitFor } from "@llmgw/testing";

export default async function globalSetup(): Promise<() => Promise<void>> {
  const home = await tempDir("e2e-home");
  const ports = { api: await freePort(), agent: await freePort(), web: await freePort() };
  const dev = spawnLlmgw(["dev"], {
    name: "dev",
    // The agents stop their engines on SIGTERM; on a loaded machine that outlasts the usual 5 s, and
    // a SIGKILL then leaves the engines (in process groups of their own) running after the tests.
    stopGraceMs: 30_000,
    env: {
      LLMGW_HOME: home.path,
      LLMGW_PORT: String(ports.api),
      LLMGW_AGENT_PORT: String(ports.agent),
      LLMGW_WEB_PORT: String(ports.web),
      // A crash-looping model is parked after five failed starts; with the default backoff
      // (5 s doubling) that takes over a minute, so the desktop spec's parked model waits less.
      LLMGW_FAILURE_BACKOFF_MS: "500",
      // Node certificates live 30 days; with a 31-day warning every certificate is "near expiry"
      // from its issue, so the desktop spec's node that joins sees certificate.expiring at once
      // (the dev fleet's own three are announced while it starts, before any spec looks).
      LLMGW_NODE_CERT_WARN_DAYS: "31",
    },
  });
  const factsPath = join(home.path, "dev.json");
  try {
    await waitFor(() => existsSync(factsPath), {
      what: "llmgw dev to write dev.json",
      // The server, the console and three agents start together; a busy machine needs minutes.
      timeoutMs: 300_000,
      intervalMs: 500,
    });
  } catch (error) {
    process.stderr.write(dev.output());
    await dev.stop();
    throw error;
  }
  process.env.LLMGW_E2E_FACTS = readFileSync(factsPath, "utf8");
  process.env.LLMGW_E2E_HOME = home.path;
  return async () => {
    await dev.stop();
    await home.remove();
  };
}
