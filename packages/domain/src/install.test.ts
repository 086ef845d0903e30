import { describe, expect, it } from "vitest";
import { installLayout } from "./install";

describe("installLayout", () => {
  it("finds a release's files beside the bundle at <release>/lib/llmgw.mjs", () => {
    const layout = installLayout(true, "file:///opt/llmgw-1.2.3/lib/llmgw.mjs", "/usr/bin/node");
    expect(layout).toEqual({
      isRelease: true,
      rootDir: "/opt/llmgw-1.2.3/",
      migrationsDir: "/opt/llmgw-1.2.3/drizzle",
      webDir: "/opt/llmgw-1.2.3/web/",
      entryScript: "/opt/llmgw-1.2.3/lib/llmgw.mjs",
      command: { command: "/opt/llmgw-1.2.3/bin/llmgw", prefixArgs: [] },
    });
  });

  it("finds a checkout's files from its root, and runs its bin script with the given node", () => {
    const layout = installLayout(false, "file:///src/llmgw/packages/domain/src/install.ts", "/n");
    expect(layout.rootDir).toBe("/src/llmgw/");
    expect(layout.webDir).toBe("/src/llmgw/apps/web/");
    expect(layout.command).toEqual({
      command: "/n",
      prefixArgs: ["/src/llmgw/packages/cli/bin/llmgw.mjs"],
    });
  });
});
