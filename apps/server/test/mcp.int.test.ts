// The MCP gateway in a real `llmgw server` process: servers and grants through tRPC, a real
// upstream (server-everything, empty environment, loopback) behind a recording relay, callers
// with the SDK's client and the MCP Inspector's CLI through /mcp. Covers the address guard,
// clearing fields, rates, the breaker, llmgw:admin, sessions as callers, and S8: a sealed header
// value never appears in an API answer, a log line or an audit line.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, openStore } from "@llmgw/db";
import { waitFor } from "@llmgw/testing";
import { must } from "@llmgw/domain";
import {
  sessionToken,
  startFleet,
  type Api,
  type Fleet,
  type ServerHandle,
  type ServerSetup,
} from "./harness";
import { callTool, resultText, toolNames } from "./mcp-client";
import { startUpstream, type Upstream } from "./mcp-upstream";

const require = createRequire(import.meta.url);
const run = promisify(execFile);
const SEALED = `sealed-bearer-${Date.now()}-9f8e7d`;
const SEALED_HEADER = `sealed-header-${Date.now()}-1a2b3c`;
const BREAKER_OPEN_MS = 2_000;

describe("the MCP gateway in llmgw server", () => {
  let fleet: Fleet;
  let setup: ServerSetup;
  let server: ServerHandle;
  let upstream: Upstream;
  let api: Api;
  let mcpUrl: string;
  let key: string;
  let keyId: string;
  /** Every tRPC answer the test saw, for the S8 scan at the end. */
  const answers: unknown[] = [];
  const seen = <T>(answer: T): T => {
    answers.push(answer);
    return answer;
  };

  beforeAll(async () => {
    upstream = await startUpstream();
    fleet = await startFleet({
      env: {
        LLMGW_MCP_ALLOW_PRIVATE: "1",
        LLMGW_MCP_BREAKER_OPEN_MS: String(BREAKER_OPEN_MS),
      },
    });
    ({ setup, server, api } = fleet);
    mcpUrl = `${server.apiUrl}/mcp`;
    const created = await api.keys.create.mutate({ owner: "team:ml", models: ["*"] });
    key = created.key;
    keyId = created.view.id;
    seen(
      await api.mcp.servers.add.mutate({
        name: "everything",
        url: upstream.url("everything"),
        description: "the reference server",
        timeoutMs: 5_000,
        headers: [{ name: "X-Team", value: "ml" }],
        credential: { bearer: SEALED },
      }),
    );
    seen(
      await api.mcp.servers.add.mutate({
        name: "limited",
        url: upstream.url("limited"),
        callsPerMinute: 2,
        credential: { secretHeader: { name: "X-Api-Key", value: SEALED_HEADER } },
      }),
    );
    seen(await api.mcp.servers.add.mutate({ name: "flaky", url: upstream.url("flaky") }));
    seen(await api.mcp.servers.add.mutate({ name: "llmgw:admin" }));
    for (const server of ["everything", "limited", "flaky", "llmgw:admin"])
      seen(await api.mcp.grants.grant.mutate({ subject: "team:ml", server, tools: ["*"] }));
  });

  afterAll(async () => {
    await fleet?.stop(Boolean(process.env.IT_DUMP));
    await upstream?.stop();
  });

  it("refuses an address with a user and password, and moving llmgw:admin", async () => {
    await expect(
      api.mcp.servers.add.mutate({ name: "creds", url: "https://bob:pw@mcp.example.com/mcp" }),
    ).rejects.toThrow(/user and password.*sealed/);
    await expect(
      api.mcp.servers.update.mutate({ name: "llmgw:admin", url: "https://elsewhere.example/mcp" }),
    ).rejects.toThrow(/cannot be moved/);
    await expect(
      api.mcp.servers.add.mutate({ name: "llmgw:admin", url: "https://elsewhere.example/mcp" }),
    ).rejects.toThrow(/cannot be moved/);
  });

  it("shows headers by name with the sealed ones marked, and clears fields given empty", async () => {
    const list = seen(await api.mcp.servers.list.query());
    const everything = must(
      list.find((s) => s.name === "everything"),
      "the everything server",
    );
    expect(everything.headers).toEqual([
      { name: "X-Team", isSealed: false, value: "ml" },
      { name: "Authorization", isSealed: true, value: null },
    ]);
    expect(everything.grants.map((g) => g.subject)).toEqual(["team:ml"]);
    expect(list.find((s) => s.name === "llmgw:admin")).toMatchObject({
      url: "llmgw:admin",
      isBuiltIn: true,
      headers: [],
    });
    const cleared = seen(
      await api.mcp.servers.update.mutate({ name: "everything", description: "", timeoutMs: null }),
    );
    expect(cleared).toMatchObject({
      description: null,
      timeoutMs: null,
      url: upstream.url("everything"),
    });
  });

  it("refuses a grant to a key that does not exist instead of saying it is done", async () => {
    await expect(
      api.mcp.grants.grant.mutate({ subject: "key:not-a-key", server: "everything", tools: ["*"] }),
    ).rejects.toThrow(/no API key with id "not-a-key"/);
    await expect(
      api.mcp.grants.grant.mutate({ subject: "user:ghost", server: "everything", tools: ["*"] }),
    ).rejects.toThrow(/no person named "ghost"/);
  });

  it("tests a server with its credential and lists its tools", async () => {
    const result = seen(await api.mcp.servers.test.mutate({ name: "everything" }));
    expect(result.ok).toBe(true);
    expect(result.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "get-sum"]));
    const sent = upstream.recorded.filter((r) => r.path.startsWith("/everything/"));
    expect(sent.every((r) => r.headers.authorization === `Bearer ${SEALED}`)).toBe(true);
    expect(sent.every((r) => r.headers["x-team"] === "ml")).toBe(true);
  });

  it("lists the granted tools as server.tool and proxies a call without the caller's key", async () => {
    const names = await toolNames(mcpUrl, key);
    expect(names).toEqual(
      expect.arrayContaining(["everything.echo", "limited.get-sum", "llmgw:admin.list_nodes"]),
    );
    const before = upstream.recorded.length;
    const result = await callTool(mcpUrl, key, "everything.get-sum", { a: 2, b: 40 });
    expect(resultText(result)).toContain("42");
    const sent = upstream.recorded.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) {
      expect(request.headers.authorization).toBe(`Bearer ${SEALED}`);
      expect(JSON.stringify(request)).not.toContain(key);
    }
  });

  it("answers llmgw:admin in process, with what the API answers", async () => {
    const nodes = JSON.parse(resultText(await callTool(mcpUrl, key, "llmgw:admin.list_nodes")));
    expect(nodes).toEqual(JSON.parse(JSON.stringify(await api.nodes.list.query())));
    const status = JSON.parse(
      resultText(await callTool(mcpUrl, key, "llmgw:admin.cluster_status")),
    );
    expect(Object.keys(status).sort()).toEqual(Object.keys(await api.status.get.query()).sort());
    const unknown = await callTool(mcpUrl, key, "llmgw:admin.explain_placement", { model: "nope" });
    expect(unknown.isError).toBe(true);
    const missing = await callTool(mcpUrl, key, "llmgw:admin.explain_placement", {});
    expect(resultText(missing)).toMatch(/model/);
  });

  it("holds each caller to the server's calls a minute with a clear 429", async () => {
    await callTool(mcpUrl, key, "limited.echo", { message: "1" });
    await callTool(mcpUrl, key, "limited.echo", { message: "2" });
    await expect(callTool(mcpUrl, key, "limited.echo", { message: "3" })).rejects.toThrow(
      /rate limit: .* may call limited 2 times a minute; retry in \d+ s/,
    );
    const raw = await fetch(mcpUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "limited.echo", arguments: { message: "4" } },
      }),
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another server is not held by this one's rate.
    expect(resultText(await callTool(mcpUrl, key, "everything.echo", { message: "ok" }))).toContain(
      "ok",
    );
  });

  it("takes a server out after five failures in a row, its tools off the list, then back", async () => {
    expect(await toolNames(mcpUrl, key)).toContain("flaky.echo");
    upstream.failing.add("flaky");
    for (let i = 0; i < 5; i++) {
      const result = await callTool(mcpUrl, key, "flaky.echo", { message: String(i) });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toMatch(/flaky failed/);
    }
    const reached = upstream.recorded.filter((r) => r.path.startsWith("/flaky/")).length;
    const out = await callTool(mcpUrl, key, "flaky.echo", { message: "6" });
    expect(resultText(out)).toMatch(/out after 5 failures in a row/);
    expect(upstream.recorded.filter((r) => r.path.startsWith("/flaky/")).length).toBe(reached);
    const names = await toolNames(mcpUrl, key);
    expect(names.some((n) => n.startsWith("flaky."))).toBe(false);
    expect(names).toContain("everything.echo");
    expect((await api.mcp.servers.list.query()).find((s) => s.name === "flaky")?.state).toBe("out");
    upstream.failing.delete("flaky");
    await waitFor(async () => (await toolNames(mcpUrl, key)).includes("flaky.echo"), {
      what: "flaky back on the list",
      timeoutMs: BREAKER_OPEN_MS * 5,
    });
  });

  it("turns a server off and on, and takes its tools with it", async () => {
    seen(await api.mcp.servers.disable.mutate({ name: "everything" }));
    expect((await toolNames(mcpUrl, key)).some((n) => n.startsWith("everything."))).toBe(false);
    seen(await api.mcp.servers.enable.mutate({ name: "everything" }));
    expect(await toolNames(mcpUrl, key)).toContain("everything.echo");
  });

  it("lets a console session call with the person's own grants", async () => {
    const token = await sessionToken(server.apiUrl, "admin", "integration-admin-pw");
    expect(await toolNames(mcpUrl, token)).toEqual([]);
    seen(
      await api.mcp.grants.grant.mutate({
        subject: "user:admin",
        server: "everything",
        tools: ["echo"],
      }),
    );
    expect(await toolNames(mcpUrl, token)).toEqual(["everything.echo"]);
    const anonymous = await fetch(mcpUrl, { method: "POST", body: "{}" });
    expect(anonymous.status).toBe(401);
  });

  it("replaces the credential, sealed, and the upstream gets the new one", async () => {
    const replaced = seen(
      await api.mcp.servers.replaceCredential.mutate({
        name: "everything",
        credential: { bearer: `${SEALED}-2` },
      }),
    );
    expect(replaced.headers.filter((h) => h.isSealed)).toEqual([
      { name: "Authorization", isSealed: true, value: null },
    ]);
    const before = upstream.recorded.length;
    await callTool(mcpUrl, key, "everything.echo", { message: "new" });
    expect(upstream.recorded.slice(before)[0]?.headers.authorization).toBe(`Bearer ${SEALED}-2`);
  });

  it("the MCP Inspector's CLI lists and calls tools through /mcp with a key", async () => {
    const cli = require.resolve("@modelcontextprotocol/inspector-cli/build/index.js");
    const common = [cli, mcpUrl, "--transport", "http", "--header", `Authorization: Bearer ${key}`];
    const listed = await run(process.execPath, [...common, "--method", "tools/list"]);
    const tools = (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools;
    expect(tools.map((t) => t.name)).toContain("everything.echo");
    const called = await run(process.execPath, [
      ...common,
      "--method",
      "tools/call",
      "--tool-name",
      "everything.echo",
      "--tool-arg",
      "message=from-inspector",
    ]);
    expect(called.stdout).toContain("from-inspector");
  });

  it("removes a server with its grants", async () => {
    seen(await api.mcp.servers.remove.mutate({ name: "limited" }));
    expect(seen(await api.mcp.grants.list.query({ server: "limited" }))).toEqual([]);
    expect((await toolNames(mcpUrl, key)).some((n) => n.startsWith("limited."))).toBe(false);
  });

  it("S8: no sealed value in any API answer, log line or audit line; every call audited", async () => {
    seen(await api.mcp.servers.list.query());
    seen(await api.mcp.grants.list.query({}));
    const secrets = [SEALED, SEALED_HEADER, `${SEALED}-2`];
    const apiText = JSON.stringify(answers);
    const output = server.process.output();
    for (const secret of secrets) {
      expect(apiText).not.toContain(secret);
      expect(output).not.toContain(secret);
    }
    expect(output).not.toContain(key);
    await server.process.stop();
    const store = await openStore({ kind: "pglite", dataDir: `${setup.homeDir}/data` });
    try {
      const rows = await store.db.select().from(auditLog);
      const text = JSON.stringify(rows);
      for (const secret of secrets) expect(text).not.toContain(secret);
      const calls = rows.filter((r) => r.action === "mcp.call");
      const outcomes = new Set(calls.map((r) => r.details.outcome));
      for (const outcome of ["ok", "rate_limited", "failed", "server_out"])
        expect(outcomes.has(outcome), outcome).toBe(true);
      expect(calls.every((r) => r.actor.startsWith("key:") || r.actor.startsWith("user:"))).toBe(
        true,
      );
      expect(calls.find((r) => r.target === "everything.get-sum")?.actor).toBe(`key:${keyId}`);
      expect(rows.some((r) => r.action === "mcp.server.credential")).toBe(true);
    } finally {
      await store.close();
    }
  });
});
