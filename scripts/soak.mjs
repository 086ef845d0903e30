// `npm run soak -- --minutes 30 [--seed N] [--every SECONDS] [--no-write]`: the R7 soak
// (apps/server/test/soak.int.test.ts) for as long as asked, writing its report into
// docs/reliability.md unless --no-write. `npm test` runs the same file as a three-minute smoke.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "30" },
    seed: { type: "string", default: "1" },
    every: { type: "string" },
    "no-write": { type: "boolean", default: false },
  },
});
const whole = (name, text, min) => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) {
    console.error(`llmgw soak: --${name} must be a whole number of at least ${min}, not "${text}"`);
    process.exit(2);
  }
  return String(n);
};
const env = {
  ...process.env,
  LLMGW_SOAK_MINUTES: whole("minutes", values.minutes, 1),
  LLMGW_SOAK_SEED: whole("seed", values.seed, 0),
  ...(values.every ? { LLMGW_SOAK_FAULT_EVERY_S: whole("every", values.every, 10) } : {}),
  ...(values["no-write"] ? {} : { LLMGW_SOAK_REPORT: join(root, "docs", "reliability.md") }),
};
const result = spawnSync(
  process.execPath,
  [
    join(root, "scripts", "pnpm.mjs"),
    "exec",
    "vitest",
    "run",
    "--project",
    "integration",
    "apps/server/test/soak.int.test.ts",
  ],
  { cwd: root, env, stdio: "inherit" },
);
process.exit(result.status ?? 1);
