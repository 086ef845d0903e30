// Next configuration for the console. The console owns no data: everything it shows comes from the
// control plane through the tRPC proxy in app/api/trpc, so the configuration stays small.
import { fileURLToPath } from "node:url";
import type { NextConfig } from "next";
import { PHASE_PRODUCTION_BUILD } from "next/constants";

const nextConfig: NextConfig = {
  // @llmgw/api ships TypeScript sources (its exports point at src/), and its browser-safe
  // @llmgw/api/schemas imports @llmgw/domain, which does too.
  transpilePackages: ["@llmgw/api", "@llmgw/domain"],
  // The console is a separate process; no header should advertise the framework to the fleet's users.
  poweredByHeader: false,
  // Which build this is, written into the console at build time: the service worker's cache is
  // named by it, and an open console compares it with the running one's to announce an upgrade.
  env: { LLMGW_CONSOLE_BUILD: process.env.LLMGW_CONSOLE_BUILD ?? new Date().toISOString() },
  reactStrictMode: true,
  // The trace of what the standalone server needs starts at the workspace root because the
  // console imports workspace packages from outside apps/web.
  outputFileTracingRoot: fileURLToPath(new URL("../../", import.meta.url)),
};

/**
 * Next requires the configuration as the default export; it asks with the phase it runs in. The
 * build writes Next's standalone server as well (server.js with only the files it traces), which a
 * release ships so the console runs with Node alone. Only the build is told: `next start`, which
 * serves a checkout's console, warns that it "does not work" when it reads that setting, although
 * the setting changes nothing it does.
 */
export default function config(phase: string): NextConfig {
  return phase === PHASE_PRODUCTION_BUILD ? { ...nextConfig, output: "standalone" } : nextConfig;
}
