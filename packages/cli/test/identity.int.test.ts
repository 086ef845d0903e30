// `llmgw ctl users`, `roles`, `groups`, `org` and `login --token-stdin` against a real server.
import { statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiClient, signInWithPassword } from "../src/ctl/client";
import {
  ADMIN_PASSWORD,
  serverSetup,
  spawnLlmgw,
  startServer,
  tempDir,
  type SpawnedProcess,
} from "@llmgw/testing";

let apiUrl: string;
let configDir: string;
let server: SpawnedProcess;

beforeAll(async () => {
  configDir = (await tempDir("ctl-identity")).path;
  const handle = await startServer(await serverSetup());
  apiUrl = handle.apiUrl;
  server = handle.process;
});
afterAll(async () => {
  await server?.stop();
});

async function ctl(args: string[], stdin?: string) {
  const proc = spawnLlmgw(["ctl", ...args], {
    env: { LLMGW_CONFIG_DIR: configDir, LLMGW_SERVER: apiUrl },
    stdin: stdin === undefined ? "ignore" : "pipe",
  });
  if (stdin !== undefined) proc.child.stdin?.end(stdin);
  const exit = await proc.exited;
  return { code: exit.code, output: proc.output() };
}

describe("llmgw ctl identity", () => {
  it("manages people, groups, the org tree and grants, and signs in with a console token", async () => {
    expect((await ctl(["login", "--password-stdin"], `${ADMIN_PASSWORD}\n`)).code).toBe(0);
    expect((await ctl(["org", "add", "org:acme"])).code).toBe(0);
    expect((await ctl(["org", "add", "team:ml", "--parent", "org:acme"])).code).toBe(0);
    const made = await ctl(
      [
        "users",
        "create",
        "ada",
        "--role",
        "viewer",
        "--home",
        "team:ml",
        "--email",
        "ada@example.com",
        "--display-name",
        "Ada Lovelace",
        "--password-stdin",
      ],
      "ada-password-1\n",
    );
    expect(made).toMatchObject({ code: 0 });
    const listed = JSON.parse((await ctl(["users", "--json"])).output) as Array<{
      username: string;
      email: string | null;
      displayName: string;
    }>;
    expect(listed.find((p) => p.username === "ada")).toMatchObject({
      email: "ada@example.com",
      displayName: "Ada Lovelace",
    });
    const badEmail = await ctl(["users", "create", "bob", "--email", "not-an-address"]);
    expect(badEmail.code).toBe(1);
    expect(badEmail.output).toMatch(/email must look like name@example.com/);
    expect((await ctl(["groups", "create", "ml-ops"])).code).toBe(0);
    expect((await ctl(["groups", "add", "ml-ops", "ada"])).code).toBe(0);
    const grant = await ctl([
      "roles",
      "grant",
      "--group",
      "ml-ops",
      "--role",
      "operator",
      "--scope",
      "team:ml",
    ]);
    expect(grant.output).toMatch(/group ml-ops holds operator on team:ml/);

    const users = await ctl(["users"]);
    const header = users.output.split("\n")[0] ?? "";
    expect(header).toMatch(/^USER\s+ROLE\s+SOURCE\s+STATE\s+GROUPS\s+GRANTS/);
    expect(users.output).toMatch(/ada\s+viewer\s+local\s+active\s+ml-ops\s+operator@team:ml/);
    expect((await ctl(["roles"])).output).toMatch(/group:ml-ops\s+operator\s+team:ml\s+admin/);

    const badRole = await ctl(["users", "role", "ada", "root"]);
    expect(badRole.code).toBe(2);
    expect(badRole.output).toMatch(/role must be admin, operator or viewer, not "root"/);
    const missingScope = await ctl([
      "roles",
      "grant",
      "--user",
      "ada",
      "--role",
      "viewer",
      "--scope",
      "team:nope",
    ]);
    expect(missingScope.code).toBe(1);
    expect(missingScope.output).toMatch(/team:nope is not in the org tree/);

    // A token made in the console (here through the same API) signs the CLI in.
    const { token } = await signInWithPassword(apiUrl, "ada", "ada-password-1");
    const made2 = await createApiClient(apiUrl, token).auth.createToken.mutate({ label: "ci" });
    const login = await ctl(["login", "--token-stdin"], `${made2.token}\n`);
    expect(login.output).toMatch(/signed in to .* as ada \(viewer\) with a token/);
    expect(statSync(join(configDir, "credentials.json")).mode & 0o777).toBe(0o600);
    const refused = await ctl(["users", "create", "eve"]);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/may only look; this needs an admin/);
    expect((await ctl(["logout-everywhere"])).output).toMatch(/signed out everywhere/);
    expect((await ctl(["whoami"])).code).not.toBe(0);
  });
});
