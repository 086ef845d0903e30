#!/usr/bin/env node
// Runs the pinned pnpm through npx, so a fresh machine needs nothing but Node and npm.
// The version is package.json's `packageManager`.
import { spawnSync } from "node:child_process";
import { PNPM_SPEC } from "./ensure.mjs";

const result = spawnSync("npx", ["-y", PNPM_SPEC, ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, COREPACK_ENABLE_STRICT: "0", npm_config_update_notifier: "false" },
});
process.exit(result.status ?? 1);
