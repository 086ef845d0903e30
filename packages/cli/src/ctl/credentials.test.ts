import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveTarget, writeCredentials } from "./credentials";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function configDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "llmgw-cred-"));
  dirs.push(dir);
  return dir;
}

describe("resolveTarget", () => {
  it("uses the saved login for its own server, and the environment's token over it", () => {
    const dir = configDir();
    writeCredentials(
      { configDir: dir, server: undefined, token: undefined },
      {
        server: "http://cp:8080",
        token: "saved",
        username: "ada",
      },
    );
    expect(resolveTarget({ configDir: dir, server: undefined, token: undefined })).toEqual({
      server: "http://cp:8080",
      token: "saved",
    });
    expect(resolveTarget({ configDir: dir, server: undefined, token: "env" }).token).toBe("env");
    // Another server than the saved one gets no token from the saved login.
    expect(
      resolveTarget({ configDir: dir, server: undefined, token: undefined }, "http://other:8080/"),
    ).toEqual({ server: "http://other:8080", token: null });
  });
});
