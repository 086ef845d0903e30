// The grant matrix through /mcp, in process: a real store (PGlite and PostgreSQL 15), the real gateway handler on a
// loopback HTTP port, a real upstream (server-everything) and the SDK's client. The ownership tree
// is built here (org:acme → team:ml → project:search → user:ada; org:acme → team:ops → user:bob),
// standing in for the identity service's resolver.
import { must } from "@llmgw/domain";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError, type ApiServices } from "@llmgw/api";
import { auditLog, eq, openStore, orgUnits, users, type Store, type StoreOptions } from "@llmgw/db";
import type { OwnershipResolver } from "@llmgw/domain";
import { tempDir } from "@llmgw/testing";
import { createKeysService } from "../src/keys/keys-service";
import { Guard } from "../src/guard/guard";
import { startMcp, type McpParts } from "../src/mcp/start-mcp";
import { callTool, resultText, toolNames } from "./mcp-client";
import { storeBackends } from "./harness";
import { startUpstream, type Upstream } from "./mcp-upstream";

const PARENT: Record<string, string | undefined> = {
  "team:ml": "org:acme",
  "team:ops": "org:acme",
  "project:search": "team:ml",
  "user:ada": "project:search",
  "user:bob": "team:ops",
};
const tree: OwnershipResolver = {
  chain: (owner) => {
    const chain = [owner];
    for (let up = PARENT[owner]; up; up = PARENT[up]) chain.unshift(up);
    return Promise.resolve(chain);
  },
};
const admin = { username: "admin" };
const SEALED_BEARER = `sealed-${randomBytes(12).toString("hex")}`;

const backends = storeBackends().map(({ name, databaseUrl }) => ({
  name,
  async options(): Promise<StoreOptions> {
    const url = await databaseUrl();
    return url === undefined
      ? { kind: "pglite", dataDir: (await tempDir("it-mcp-grants")).path }
      : { kind: "postgres", url };
  },
}));

describe.each(backends)("MCP grants through /mcp on $name", ({ options }) => {
  let store: Store;
  let upstream: Upstream;
  let mcp: McpParts;
  let http: Server;
  let url: string;
  const keys: Record<string, { id: string; key: string }> = {};
  const logLines: string[] = [];

  beforeAll(async () => {
    upstream = await startUpstream();
    store = await openStore(await options());
    const { db } = store;
    await db.insert(users).values([
      { id: "u-ada", username: "ada", role: "viewer" },
      { id: "u-bob", username: "bob", role: "viewer" },
    ]);
    // The same tree in the store, where grants look up whether a unit exists.
    await db.insert(orgUnits).values([
      { id: "o-acme", kind: "org", name: "acme", parent: null },
      { id: "t-ml", kind: "team", name: "ml", parent: "org:acme" },
      { id: "t-ops", kind: "team", name: "ops", parent: "org:acme" },
      { id: "p-search", kind: "project", name: "search", parent: "team:ml" },
    ]);
    const keyService = createKeysService(db, randomBytes(32), Date.now);
    mcp = startMcp({
      db,
      config: { isPrivateAllowed: true, breakerOpenMs: 60_000, defaultTimeoutMs: 10_000 },
      masterKey: randomBytes(32),
      keys: keyService,
      // No policies are stored here, so the guard lets every call through untouched.
      guard: new Guard({ db, nowMs: Date.now, log: (line) => logLines.push(line) }),
      sessionUser: () => Promise.resolve(null),
      ownership: tree,
      nowMs: Date.now,
      log: (line) => logLines.push(line),
    });
    // llmgw:admin is not registered in this file, so no fleet service is reached.
    const handle = mcp.handler({} as ApiServices);
    http = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    for (const [name, owner] of [
      ["ada", "user:ada"],
      ["bob", "user:bob"],
      ["search", "project:search"],
      ["ml", "team:ml"],
    ] as const) {
      const created = await keyService.create({ owner, models: ["*"] }, admin);
      keys[name] = { id: created.view.id, key: created.key };
    }
    await mcp.service.addServer(
      {
        name: "everything",
        url: upstream.url("everything"),
        credential: { bearer: SEALED_BEARER },
      },
      admin,
    );
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
    await store?.close();
    await upstream?.stop();
  });

  const keyOf = (who: string) => must(keys[who], `a key made for ${who}`);
  const seen = async (who: string) => toolNames(url, keyOf(who).key);
  const grant = (subject: string, tools: string[]) =>
    mcp.service.grant({ subject, server: "everything", tools }, admin);
  const revoke = (subject: string, tools?: string[]) =>
    mcp.service.revoke({ subject, server: "everything", tools }, admin);

  it("shows nothing before any grant, and refuses a call to an ungranted tool", async () => {
    expect(await seen("ada")).toEqual([]);
    await expect(
      callTool(url, keyOf("ada").key, "everything.echo", { message: "hi" }),
    ).rejects.toThrow(/not among the tools granted/);
  });

  it("inherits an org's grant all the way down, and proxies with the sealed credential only", async () => {
    await grant("org:acme", ["echo", "get-sum"]);
    expect(await seen("ada")).toEqual(["everything.echo", "everything.get-sum"]);
    expect(await seen("bob")).toEqual(["everything.echo", "everything.get-sum"]);
    const before = upstream.recorded.length;
    const result = await callTool(url, keyOf("ada").key, "everything.echo", { message: "through" });
    expect(resultText(result)).toContain("through");
    const sent = upstream.recorded.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) {
      expect(request.headers.authorization).toBe(`Bearer ${SEALED_BEARER}`);
      expect(JSON.stringify(request)).not.toContain(keyOf("ada").key);
    }
  });

  it("a team's grant adds to what it inherited, for its levels only", async () => {
    await grant("team:ml", ["get-env"]);
    expect(await seen("ada")).toEqual([
      "everything.echo",
      "everything.get-env",
      "everything.get-sum",
    ]);
    expect(await seen("bob")).toEqual(["everything.echo", "everything.get-sum"]);
  });

  it("revoking at the org takes the tool from the team's own list too (cascade)", async () => {
    await revoke("org:acme", ["echo"]);
    expect(await seen("ada")).toEqual(["everything.get-env", "everything.get-sum"]);
    expect(await seen("ml")).toEqual(["everything.get-env", "everything.get-sum"]);
    expect(await seen("bob")).toEqual(["everything.get-sum"]);
    await expect(
      callTool(url, keyOf("ada").key, "everything.echo", { message: "x" }),
    ).rejects.toThrow(/not among the tools granted/);
  });

  it("a level revoked to nothing stays closed while levels above name tools", async () => {
    await revoke("project:search");
    const grants = await mcp.service.listGrants({ server: "everything" });
    expect(grants.find((g) => g.subject === "project:search")).toMatchObject({
      tools: [],
      isClosed: true,
    });
    expect(await seen("search")).toEqual([]);
    expect(await seen("ada")).toEqual([]);
    expect(await seen("ml")).toEqual(["everything.get-env", "everything.get-sum"]);
  });

  it("a key beneath a closed level sees only what is granted to the key itself", async () => {
    await grant(`key:${keyOf("ada").id}`, ["echo"]);
    expect(await seen("ada")).toEqual(["everything.echo"]);
    expect(await seen("search")).toEqual([]);
  });

  it("opening the closed level lets it inherit again", async () => {
    await mcp.service.open("project:search", "everything", admin);
    expect(await seen("search")).toEqual(["everything.get-env", "everything.get-sum"]);
    // ada's key still names its own list.
    expect(await seen("ada")).toEqual(["everything.echo"]);
  });

  it("refuses a grant to a key, person or unit that does not exist, and writes nothing", async () => {
    const before = await mcp.service.listGrants({ server: "everything" });
    await expect(grant("key:no-such-key", ["*"])).rejects.toBeInstanceOf(ServiceError);
    await expect(grant("key:no-such-key", ["*"])).rejects.toThrow(/no API key with id/);
    await expect(grant("user:nobody", ["*"])).rejects.toThrow(/no person named "nobody"/);
    // A misspelt team would hold a grant nobody inherits: refused, naming the command that adds it.
    await expect(grant("team:mll", ["*"])).rejects.toThrow(
      /no team named "mll" is known here.*llmgw ctl org add team:mll/,
    );
    await expect(
      mcp.service.grant({ subject: "team:ml", server: "nope", tools: ["*"] }, admin),
    ).rejects.toThrow(/no MCP server named "nope"/);
    expect(await mcp.service.listGrants({ server: "everything" })).toEqual(before);
  });

  it("audits every call by caller, tool and outcome, and never the credential", async () => {
    const rows = await store.db.select().from(auditLog).where(eq(auditLog.action, "mcp.call"));
    const outcomes = rows.map((r) => `${r.target}:${String(r.details.outcome)}`);
    expect(outcomes).toContain("everything.echo:ok");
    expect(outcomes).toContain("everything.echo:refused");
    expect(rows.find((r) => r.details.outcome === "ok")?.actor).toBe(`key:${keyOf("ada").id}`);
    const everything = JSON.stringify(await store.db.select().from(auditLog));
    expect(everything).not.toContain(SEALED_BEARER);
    expect(JSON.stringify(await mcp.service.listServers())).not.toContain(SEALED_BEARER);
    expect(logLines.join("\n")).not.toContain(SEALED_BEARER);
  });
});
