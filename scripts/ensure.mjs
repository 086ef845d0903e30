#!/usr/bin/env node
// Makes the checkout runnable: dependencies installed (only when the lockfile changed) and the
// console built (only when its sources changed). Used by `npm start`, `npm test` and `npm run llmgw`.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** "pnpm@X.Y.Z" from package.json's `packageManager`, the one place the pnpm version is written. */
export const PNPM_SPEC = readPackageManager();
const PNPM = ["-y", PNPM_SPEC];

function readPackageManager() {
  const { packageManager } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  if (typeof packageManager !== "string" || !/^pnpm@\d+\.\d+\.\d+$/.test(packageManager)) {
    throw new Error(
      `package.json: "packageManager" must be "pnpm@X.Y.Z" (exact), got ${JSON.stringify(packageManager)}`,
    );
  }
  return packageManager;
}

export function pnpm(args, options = {}) {
  const result = spawnSync("npx", [...PNPM, ...args], {
    cwd: ROOT,
    // Progress goes to stderr, so `./llmgw ctl … --json` prints only JSON on stdout even when it
    // has to install first.
    stdio: ["inherit", 2, 2],
    env: { ...process.env, npm_config_update_notifier: "false", NEXT_TELEMETRY_DISABLED: "1" },
    ...options,
  });
  if (result.status !== 0) {
    console.error(
      `llmgw: \`pnpm ${args.join(" ")}\` failed (exit ${result.status ?? result.signal})`,
    );
    process.exit(result.status ?? 1);
  }
}

function hashFiles(paths) {
  const hash = createHash("sha256");
  const walk = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) {
        if (["node_modules", ".next", "test-results", "artifacts"].includes(name)) continue;
        walk(join(path, name));
      }
    } else {
      hash.update(relative(ROOT, path)).update("\0").update(readFileSync(path)).update("\0");
    }
  };
  for (const path of paths) walk(join(ROOT, path));
  return hash.digest("hex");
}

function upToDate(stampPath, digest) {
  return existsSync(stampPath) && readFileSync(stampPath, "utf8").trim() === digest;
}

export function ensureInstalled() {
  const stamp = join(ROOT, "node_modules", ".llmgw-install-stamp");
  const digest = hashFiles(["pnpm-lock.yaml", "pnpm-workspace.yaml", "package.json"]);
  if (upToDate(stamp, digest)) return;
  console.error("llmgw: installing dependencies (pnpm install --frozen-lockfile)…");
  pnpm(["install", "--frozen-lockfile", "--prefer-offline"]);
  writeFileSync(stamp, `${digest}\n`);
}

export function ensureWebBuilt() {
  const stamp = join(ROOT, "apps", "web", ".next", ".llmgw-source-stamp");
  const digest = hashFiles([
    "apps/web",
    "packages/api/src",
    "packages/domain/src",
    "pnpm-lock.yaml",
  ]);
  if (upToDate(stamp, digest) && existsSync(join(ROOT, "apps", "web", ".next", "BUILD_ID"))) return;
  console.error("llmgw: building the console (next build; about a minute on 2 cores)…");
  pnpm(["--filter", "@llmgw/web", "build"]);
  writeFileSync(stamp, `${digest}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureInstalled();
  if (process.argv.includes("--web")) ensureWebBuilt();
}
