import { existsSync } from "node:fs";
import { join } from "node:path";
import { INSTALL } from "@llmgw/domain/install";
import { describe, expect, it } from "vitest";
import { IS_RELEASE, LLMGW_BIN, REPO_ROOT, WEB_DIR } from "./paths";

describe("paths from a checkout", () => {
  it("point at this checkout's console, command and migrations", () => {
    expect(IS_RELEASE).toBe(false);
    expect(existsSync(join(REPO_ROOT, "pnpm-workspace.yaml"))).toBe(true);
    expect(existsSync(join(WEB_DIR, "next.config.ts"))).toBe(true);
    expect(LLMGW_BIN).toBe(join(REPO_ROOT, "packages", "cli", "bin", "llmgw.mjs"));
    expect(existsSync(join(INSTALL.migrationsDir, "meta", "_journal.json"))).toBe(true);
  });
});
