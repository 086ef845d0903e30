#!/usr/bin/env node
// `npm test`: installs what the suites need, then runs every check and suite in order — generated
// code and migrations up to date, no breaking change to the released agent protocol, types, lint,
// unit and integration tests (PGlite and a real PostgreSQL 15), and the browser end-to-end tests in
// Debian's Chromium. Ends with one line: "N passed, N failed".
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PNPM_SPEC, ROOT, ensureInstalled, ensureWebBuilt, pnpm } from "./ensure.mjs";
import { playwrightFailures, vitestFailures } from "./test-report.mjs";

const RESULTS = join(ROOT, "test-results");
const SYSTEM_PACKAGES = [
  { path: "/usr/bin/chromium", pkg: "chromium", why: "browser end-to-end tests" },
  {
    path: "/usr/lib/postgresql/15/bin/initdb",
    pkg: "postgresql-15",
    why: "integration tests on PostgreSQL",
  },
  { path: "/usr/sbin/slapd", pkg: "slapd", why: "Active Directory (LDAP) sign-in tests" },
  { path: "/usr/bin/ldapsearch", pkg: "ldap-utils", why: "Active Directory (LDAP) sign-in tests" },
  // samba holds /usr/sbin/samba (samba-tool comes with it, in samba-common-bin); samba-ad-dc
  // brings what the DC role needs (samba-dsdb-modules: the directory's ldb modules, winbind) and
  // samba-ad-provision the schema and templates `samba-tool domain provision` reads.
  { path: "/usr/sbin/samba", pkg: "samba", why: "Active Directory sign-in tests (Samba AD DC)" },
  {
    path: `/usr/lib/${process.arch === "arm64" ? "aarch64" : "x86_64"}-linux-gnu/samba/ldb/samba_dsdb.so`,
    pkg: "samba-ad-dc",
    why: "Active Directory sign-in tests (Samba AD DC)",
  },
  {
    path: "/usr/share/samba/setup/provision.ldif",
    pkg: "samba-ad-provision",
    why: "Active Directory sign-in tests (Samba AD DC)",
  },
  { path: "/usr/sbin/ip", pkg: "iproute2", why: "Active Directory sign-in tests (Samba AD DC)" },
  { path: "/usr/bin/promtool", pkg: "prometheus", why: "checking and testing the alert rules" },
  {
    path: `/usr/lib/${process.arch === "arm64" ? "aarch64" : "x86_64"}-linux-gnu/libjemalloc.so.2`,
    pkg: "libjemalloc2",
    why: "the release launcher's allocator (release tests)",
  },
];

function ensureSystemPackages() {
  const missing = SYSTEM_PACKAGES.filter((p) => !existsSync(p.path));
  if (missing.length === 0) return;
  const names = missing.map((p) => p.pkg);
  if (process.getuid?.() !== 0) {
    console.error(
      `llmgw test: missing ${names.join(", ")} (${missing.map((p) => p.why).join("; ")}); install with apt-get`,
    );
    process.exit(1);
  }
  console.error(`llmgw test: installing ${names.join(", ")} from Debian…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  const result = spawnSync("apt-get", ["install", "-y", "-qq", ...names], {
    stdio: "inherit",
    env,
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The environment every `pnpm` command of the run gets: no update notices, no Next telemetry.
const PNPM_ENV = {
  ...process.env,
  npm_config_update_notifier: "false",
  NEXT_TELEMETRY_DISABLED: "1",
};

function step(title, fn) {
  const started = Date.now();
  console.log(`\n=== ${title}`);
  fn();
  console.log(`=== ${title}: ok (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

/** Runs one `pnpm` command, its output kept; resolves with its exit status, output and time. */
function runCaptured(args) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("npx", ["-y", PNPM_SPEC, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: PNPM_ENV,
    });
    const chunks = [];
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.stderr.on("data", (chunk) => chunks.push(chunk));
    child.on("error", (error) => chunks.push(Buffer.from(String(error))));
    child.on("close", (code, signal) =>
      resolve({
        ok: code === 0,
        exit: code ?? signal,
        output: Buffer.concat(chunks).toString("utf8"),
        seconds: (Date.now() - started) / 1000,
      }),
    );
  });
}

/** A step of several commands, two running at a time in the order given. */
async function stepTogether(title, commands, width = 2) {
  const started = Date.now();
  console.log(`\n=== ${title}`);
  const queue = [...commands];
  const failed = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const result = await runCaptured(next.args);
      process.stdout.write(`--- ${next.title} (${result.seconds.toFixed(0)} s)\n${result.output}`);
      if (!result.ok) {
        console.error(`llmgw test: \`pnpm ${next.args.join(" ")}\` failed (exit ${result.exit})`);
        failed.push(next.title);
      }
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  if (failed.length > 0) {
    console.error(`=== ${title}: failed (${failed.join(", ")})`);
    process.exit(1);
  }
  console.log(`=== ${title}: ok (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

function countVitest(file) {
  const report = JSON.parse(readFileSync(file, "utf8"));
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
  };
}

function countPlaywright(file) {
  const { stats } = JSON.parse(readFileSync(file, "utf8"));
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
}

function run(args, { allowFail = false } = {}) {
  const result = spawnSync("npx", ["-y", PNPM_SPEC, ...args], {
    cwd: ROOT,
    stdio: "inherit",
    env: PNPM_ENV,
  });
  if (result.status !== 0 && !allowFail) {
    console.error(`llmgw test: \`pnpm ${args.join(" ")}\` failed`);
    process.exit(result.status ?? 1);
  }
  return result.status === 0;
}

rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });
step("install", () => {
  ensureInstalled();
  ensureSystemPackages();
});
step("generated protobuf code, buf lint and buf breaking against the released proto", () => {
  pnpm(["--filter", "@llmgw/proto", "check:generated"]);
  pnpm(["--filter", "@llmgw/proto", "lint:proto"]);
  pnpm(["--filter", "@llmgw/proto", "check:breaking"]);
});
// Types, lint, unused exports and format: each is one thread, so they run two at a time (the
// machine's two cores) instead of one after another; each one's output is printed whole when it
// ends, and the step fails if any of them does.
await stepTogether("types, lint and format", [
  {
    title: "types",
    args: ["-r", "--workspace-concurrency=1", "typecheck"],
  },
  { title: "lint", args: ["exec", "eslint", "--max-warnings=0", "."] },
  // Unused exports and types (knip.jsonc).
  {
    title: "unused exports",
    args: ["exec", "knip", "--include", "exports,types", "--no-progress"],
  },
  {
    title: "format",
    args: ["exec", "prettier", "--check", "--log-level", "warn", "**/*.{ts,tsx,mjs,js,css,md}"],
  },
]);

// The shipped Prometheus files: the rules and the example configuration parse, and the rules'
// unit tests (deploy/prometheus/llmgw-alerts.test.yml) fire each alert where they should.
step("alert rules (promtool check and test)", () => {
  for (const args of [
    ["check", "rules", "llmgw-alerts.yml"],
    ["check", "config", "prometheus.yml"],
    ["test", "rules", "llmgw-alerts.test.yml"],
  ]) {
    const result = spawnSync("promtool", args, {
      cwd: join(ROOT, "deploy", "prometheus"),
      stdio: "inherit",
    });
    if (result.status !== 0) {
      console.error(`llmgw test: \`promtool ${args.join(" ")}\` failed`);
      process.exit(result.status ?? 1);
    }
  }
});

const totals = { passed: 0, failed: 0, skipped: 0 };
const add = (counts) => {
  for (const key of Object.keys(totals)) totals[key] += counts[key];
};
// Before the integration tests: the release tests package the built console, and two of them
// starting `next build` at once in one folder would break each other.
step("build the console", () => ensureWebBuilt());
// The real-engine test (apps/server/test/llamacpp-real.int.test.ts) serves with llama.cpp built as
// an agent builds it; cached outside the checkout, so only a machine's first run compiles (minutes).
step("llama.cpp's llama-server (built once per machine, then cached)", () => {
  const result = spawnSync(process.execPath, [join(ROOT, "scripts", "build-llamacpp.mjs")], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
});
const vitestReport = join(RESULTS, "vitest.json");
console.log("\n=== unit and integration tests (vitest)");
const vitestOk = run(
  [
    "exec",
    "vitest",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${vitestReport}`,
  ],
  { allowFail: true },
);
const failures = [];
if (existsSync(vitestReport)) {
  add(countVitest(vitestReport));
  failures.push(...vitestFailures(JSON.parse(readFileSync(vitestReport, "utf8")), ROOT));
} else if (!vitestOk) totals.failed += 1;

// Benchmarks never fail CI on timing; their smallest size runs as a smoke check of correctness,
// two at a time (each mostly waits on the processes it starts), the longest first.
// The router's runs llmgw from the checkout: from a release (its default) it would build one, as
// the release smoke beside it does at the same time in the same checkout.
const smoke = (bench) => ({
  title: bench,
  args: [
    ...["--filter", "@llmgw/bench", "exec", "tsx", `${bench}/run.ts`, "--smoke", "--no-write"],
    ...(bench === "router" ? ["--from", "checkout"] : []),
  ],
});
await stepTogether(
  "benchmark smokes",
  ["console", "router", "release", "placement", "heatmap"].map(smoke),
);
const playwrightReport = join(RESULTS, "playwright.json");
console.log("\n=== browser end-to-end tests (Playwright, Debian Chromium)");
const e2eOk =
  spawnSync("npx", ["-y", PNPM_SPEC, "--filter", "@llmgw/e2e", "exec", "playwright", "test"], {
    cwd: ROOT,
    stdio: "inherit",
    env: {
      ...process.env,
      PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
      npm_config_update_notifier: "false",
    },
  }).status === 0;
if (existsSync(playwrightReport)) {
  add(countPlaywright(playwrightReport));
  failures.push(...playwrightFailures(JSON.parse(readFileSync(playwrightReport, "utf8"))));
} else if (!e2eOk) totals.failed += 1;

if (failures.length > 0) {
  console.log("\nFailed:");
  for (const failure of failures) console.log(`  ✘ ${failure}`);
}

console.log(
  `\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`,
);
process.exit(vitestOk && e2eOk && totals.failed === 0 ? 0 : 1);
