// `llmgw ctl` as a person uses it: real processes, a real server with a simulated node.
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_PASSWORD,
  freePort,
  serverSetup,
  spawnLlmgw,
  startAgent,
  startServer,
  tempDir,
  waitFor,
  type SpawnedProcess,
} from "@llmgw/testing";

const PASSWORD = ADMIN_PASSWORD;
let apiUrl: string;
let configDir: string;
const started: SpawnedProcess[] = [];

beforeAll(async () => {
  configDir = (await tempDir("ctl-config")).path;
  const server = await startServer(await serverSetup());
  apiUrl = server.apiUrl;
  started.push(server.process, await startAgent(server, "ctl-l40s", "l40sx4"));
});
afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
});

async function ctl(args: string[], stdin?: string, env: Record<string, string> = {}) {
  const proc = spawnLlmgw(["ctl", ...args], {
    env: { LLMGW_CONFIG_DIR: configDir, ...env },
    stdin: stdin === undefined ? "ignore" : "pipe",
  });
  if (stdin !== undefined) proc.child.stdin?.end(stdin);
  const exit = await proc.exited;
  return { code: exit.code, output: proc.output() };
}

describe("llmgw ctl", () => {
  it("fails clearly before login, logs in, and lists nodes as a table and as JSON", async () => {
    const before = await ctl(["nodes", "--server", apiUrl]);
    expect(before.code).not.toBe(0);
    expect(before.output).toMatch(/sign in first.*llmgw ctl login/s);

    const wrong = await ctl(
      ["login", "--server", apiUrl, "--password-stdin"],
      "not-the-password\n",
    );
    expect(wrong.code).not.toBe(0);
    expect(wrong.output).toMatch(/wrong username or password/);

    const login = await ctl(["login", "--server", apiUrl, "--password-stdin"], `${PASSWORD}\n`);
    expect(login.code).toBe(0);
    expect(statSync(join(configDir, "credentials.json")).mode & 0o777).toBe(0o600);

    const table = await waitFor(
      async () => {
        const result = await ctl(["nodes"]);
        return result.output.includes("ctl-l40s") ? result : null;
      },
      { what: "ctl-l40s in `ctl nodes`", timeoutMs: 30_000 },
    );
    expect(table.code).toBe(0);
    const lines = table.output.trim().split("\n");
    expect(lines[0]).toMatch(/^NAME\s+STATE\s+LOCATION\s+GPUS\s.*\sENGINES\s/);
    const row = lines.find((line) => line.startsWith("ctl-l40s"));
    // No location labels: LOCATION shows "-".
    expect(row).toMatch(/ready \(simulated\)\s+-\s+4 x NVIDIA L40S/);
    // Columns line up: STATE starts at the same offset in the header and the row.
    expect(row?.indexOf("ready")).toBe(lines[0]?.indexOf("STATE"));

    const json = await ctl(["nodes", "--json"]);
    const nodes = JSON.parse(json.output) as Array<{
      name: string;
      gpus: unknown[];
      simulated: boolean;
    }>;
    expect(nodes.find((n) => n.name === "ctl-l40s")).toMatchObject({
      simulated: true,
      gpus: expect.any(Array),
    });
    expect(nodes.find((n) => n.name === "ctl-l40s")?.gpus).toHaveLength(4);
  });

  it("explores what fits, with a config file, as a table and as JSON, and names a broken file", async () => {
    const dir = (await tempDir("ctl-explore")).path;
    const tiny = {
      ...{ model_type: "llama", hidden_size: 512, intermediate_size: 2048, vocab_size: 32_000 },
      ...{ num_attention_heads: 8, num_key_value_heads: 4, num_hidden_layers: 4 },
      ...{ max_position_embeddings: 4096, torch_dtype: "bfloat16" },
    };
    writeFileSync(join(dir, "tiny.json"), JSON.stringify(tiny));
    writeFileSync(join(dir, "broken.json"), "{ nope");
    const table = await ctl(["explore", "--config", join(dir, "tiny.json")]);
    expect(table.code).toBe(0);
    expect(table.output).toMatch(/^MODEL\s+CLASS\s+CARDS\s+TP\s+EP\s+CONTEXT\s+VERDICT/);
    expect(table.output).toMatch(/\ntiny\s+\S*L40S\S* on ctl-l40s\s+1\s+1\s+-\s+4096\s+fits\n/);
    const json = await ctl(["explore", "--config", join(dir, "tiny.json"), "--json"]);
    const answer = JSON.parse(json.output) as { models: Array<{ name: string; fitsNow: boolean }> };
    expect(answer.models.find((m) => m.name === "tiny")?.fitsNow).toBe(true);
    const broken = await ctl(["explore", "--config", join(dir, "broken.json")]);
    expect(broken.code).toBe(1);
    expect(broken.output).toMatch(/config "broken" cannot be sized: it is not JSON/);
  });

  it("creates an API key that opens /v1, lists it and revokes it", async () => {
    const created = await ctl([
      "keys",
      "create",
      "--owner",
      "team:ml",
      "--models",
      "qwen*",
      "--rpm",
      "600",
      "--tpm",
      "200000",
      "--max-concurrent",
      "8",
      "--expires",
      "30d",
      "--json",
    ]);
    expect(created.code).toBe(0);
    const view = JSON.parse(
      created.output.slice(created.output.indexOf("{"), created.output.lastIndexOf("}") + 1),
    ) as { key: string; id: string; expiresAt: string };
    expect(view.key).toMatch(/^llmgw_[0-9a-f]{12}_[0-9a-f]{40}_[0-9a-f]{8}$/);
    expect(Date.parse(view.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const models = (key: string) =>
      fetch(`${apiUrl}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect((await models(view.key)).status).toBe(200);
    const listed = await ctl(["keys", "list"]);
    expect(listed.output).toMatch(/team:ml\s+qwen\*\s+600\/200000\/8\s+active/);
    expect(listed.output).not.toContain(view.key);
    expect((await ctl(["keys", "revoke", view.id])).code).toBe(0);
    expect((await models(view.key)).status).toBe(401);
    expect(
      (await ctl(["keys", "create", "--owner", "team:ml", "--models", "*", "--expires", "soon"]))
        .output,
    ).toMatch(/--expires takes a duration/);
    const usage = await ctl(["usage", "--since", "1h"]);
    expect(usage.code, usage.output).toBe(0);
    expect(usage.output).toMatch(/usage from .* to .*\n(no requests in this range|OWNER)/);
  });

  it("lists the key events as a table and as JSON, and refuses an unknown kind", async () => {
    const table = await waitFor(
      async () => {
        const run = await ctl(["events", "--kind", "key.created,key.revoked"]);
        return run.output.includes("key.revoked") ? run : undefined;
      },
      { what: "the key events in `ctl events`", timeoutMs: 10_000 },
    );
    expect(table.code).toBe(0);
    expect(table.output).toMatch(/TIME\s+SEVERITY\s+KIND\s+SUBJECT\s+DETAILS/);
    // jsonb keeps its own key order, so each param is matched on the line on its own.
    const revoked = table.output.split("\n").find((line) => line.includes("key.revoked")) ?? "";
    expect(revoked).toMatch(/info\s+key\.revoked\s+key:\S+\s+\S/);
    expect(revoked).toContain("owner=team:ml");
    expect(revoked).toContain("actor=admin");
    const json = await ctl(["events", "--subject", "key", "--limit", "1", "--json"]);
    const page = JSON.parse(json.output) as { events: Array<{ kind: string }>; nextCursor: number };
    expect(page.events).toHaveLength(1);
    expect(page.events[0]?.kind).toBe("key.revoked");
    expect(page.nextCursor).toBeGreaterThan(0);
    const bad = await ctl(["events", "--kind", "node.exploded"]);
    expect(bad.code).toBe(2);
    expect(bad.output).toMatch(/--kind does not know "node.exploded"/);
  });

  it("adds MCP servers with a sealed bearer from a file, tests, grants, revokes and removes", async () => {
    const secret = `ctl-bearer-${Date.now()}`;
    const bearerFile = join((await tempDir("ctl-mcp")).path, "bearer");
    writeFileSync(bearerFile, `${secret}\n`, { mode: 0o600 });
    const added = await ctl([
      "mcp",
      "add",
      "tickets",
      "--url",
      "https://mcp.example.invalid/mcp",
      "--bearer-file",
      bearerFile,
      "--rate",
      "30",
      "--header",
      "X-Team: ml",
    ]);
    expect(added.code, added.output).toBe(0);
    expect(added.output).not.toContain(secret);
    const refused = await ctl(["mcp", "add", "local", "--url", "http://127.0.0.1:9/mcp"]);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/private, loopback.*LLMGW_MCP_ALLOW_PRIVATE/);
    // Loopback in IPv6 disguise, which the old MCP guard let through.
    const disguised = await ctl(["mcp", "add", "local", "--url", "http://[::127.0.0.1]:9/mcp"]);
    expect(disguised.code).toBe(1);
    expect(disguised.output).toMatch(/IPv4-compatible address hiding 127\.0\.0\.1/);
    expect((await ctl(["mcp", "add", "llmgw:admin"])).code).toBe(0);
    const tested = await ctl(["mcp", "test", "llmgw:admin"]);
    expect(tested.code, tested.output).toBe(0);
    for (const tool of [
      "cluster_status",
      "list_nodes",
      "list_models",
      "list_replicas",
      "explain_placement",
      "node_logs",
    ])
      expect(tested.output).toContain(tool);
    const granted = await ctl([
      "mcp",
      "grant",
      "tickets",
      "--to",
      "team:ml",
      "--tools",
      "search,get-*",
    ]);
    expect(granted.code, granted.output).toBe(0);
    expect(granted.output).toMatch(/team:ml\s+get-\*,search/);
    const missingKey = await ctl(["mcp", "grant", "tickets", "--to", "key:nope", "--tools", "*"]);
    expect(missingKey.code).toBe(1);
    expect(missingKey.output).toMatch(/no API key with id "nope"/);
    const listed = await ctl(["mcp", "list"]);
    expect(listed.output).toMatch(
      /tickets\s+enabled\s+https:\/\/mcp\.example\.invalid\/mcp\s+30\/min\s+X-Team, Authorization \(sealed\)\s+team:ml=get-\*,search/,
    );
    expect(listed.output).not.toContain(secret);
    expect((await ctl(["mcp", "list", "--json"])).output).not.toContain(secret);
    const revoked = await ctl(["mcp", "revoke", "tickets", "--to", "team:ml", "--tools", "search"]);
    expect(revoked.output).toMatch(/team:ml\s+get-\*/);
    expect((await ctl(["mcp", "remove", "tickets"])).code).toBe(0);
    expect((await ctl(["mcp", "list"])).output).not.toContain("tickets");
  });

  it("says so when the server cannot be reached or the token is wrong", async () => {
    const port = await freePort();
    const unreachable = await ctl(["nodes", "--server", `http://127.0.0.1:${port}`]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.output).toMatch(
      /cannot reach the llmgw server at http:\/\/127\.0\.0\.1:\d+/,
    );

    const badToken = await ctl(["nodes", "--server", apiUrl], undefined, { LLMGW_TOKEN: "forged" });
    expect(badToken.code).toBe(1);
    expect(badToken.output).toMatch(/sign in first/);
  });
});
