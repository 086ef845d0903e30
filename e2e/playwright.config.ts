// Browser end-to-end tests: Debian's Chromium (never a downloaded browser) against the whole
// product started by `llmgw dev` in a temporary home, on free ports. The admin signs in once (the
// "admin-session" project) and the specs start from that saved session.
import { defineConfig } from "@playwright/test";
import { ADMIN_SESSION_PATH } from "./tests/facts";

export default defineConfig({
  testDir: "./tests",
  outputDir: "../test-results/playwright",
  timeout: 120_000,
  expect: { timeout: 30_000 },
  workers: 1,
  retries: 0,
  reporter: [["list"], ["json"]],
  globalSetup: "./global-setup.ts",
  use: {
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    trace: "retain-on-failure",
  },
  projects: [
    { name: "admin-session", testMatch: /admin-session\.setup\.ts$/ },
    {
      name: "console",
      dependencies: ["admin-session"],
      use: { storageState: ADMIN_SESSION_PATH },
    },
  ],
});
