#!/usr/bin/env node
// Runs the pinned pnpm through npx, so a fresh machine needs nothing but Node and npm.
import { spawnSync } from "node:child_process";

const PNPM_VERSION = "10.34.9";
const result = spawnSync("npx", ["-y", `pnpm@${PNPM_VERSION}`, ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, COREPACK_ENABLE_STRICT: "0", npm_config_update_notifier: "false" },
});
process.exit(result.status ?? 1);
