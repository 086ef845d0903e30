// The agent's self-upgrade against a real loopback HTTP server serving real small releases: the
// happy path swaps `current`, and a tampered download is refused with the old release left running.
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "@llmgw/proto";
import { UpgradeAgentSchema } from "@llmgw/proto";
import { installOrWhyNot, swapCurrent, unpackRelease } from "@llmgw/release";
import { writeTestRelease } from "@llmgw/release/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createRequestHandler, type RequestContext } from "../requests";
import { selfUpgrade, type SelfUpgradeDeps } from "./self-upgrade";

const dirs: string[] = [];
const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "llmgw-agent-upgrade-"));
  dirs.push(dir);
  return dir;
}

/** An installation root running 1.0.0, a served 1.1.0, and the deps pointing at both. */
async function fixture(serve: (body: Buffer) => Buffer = (body) => body) {
  const releases = tempDir();
  const old = await writeTestRelease(releases, "1.0.0");
  const next = await writeTestRelease(releases, "1.1.0");
  const root = tempDir();
  await unpackRelease(old.file, root, "1.0.0");
  await swapCurrent(root, "1.0.0");
  const body = serve(readFileSync(next.file));
  const requested: string[] = [];
  const server = createServer((req, res) => {
    requested.push(req.url ?? "");
    res.writeHead(200, { "content-length": body.length }).end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const dataDir = tempDir();
  const deps: SelfUpgradeDeps = {
    runningVersion: "1.0.0",
    serverUrl: () => `ws://127.0.0.1:${port}/agent/v1`,
    dataDir,
    tls: undefined,
    install: () => installOrWhyNot(join(root, "llmgw-1.0.0")),
  };
  const frame = create(UpgradeAgentSchema, {
    version: "1.1.0",
    file: "llmgw-1.1.0-linux-x64.tar.gz",
    sha256: next.sha256,
    urlPath: "/agent/v1/releases/llmgw-1.1.0-linux-x64.tar.gz",
  });
  return { root, deps, frame, requested, dataDir };
}

describe("selfUpgrade", () => {
  it("fetches from the control plane it is connected to, swaps current, keeps the old release", async () => {
    const { root, deps, frame, requested, dataDir } = await fixture();
    expect(await selfUpgrade(frame, deps)).toEqual({ ok: true, error: "", alreadyCurrent: false });
    expect(requested).toEqual(["/agent/v1/releases/llmgw-1.1.0-linux-x64.tar.gz"]);
    expect(readlinkSync(join(root, "current"))).toBe("llmgw-1.1.0");
    expect(readFileSync(join(root, "llmgw-1.0.0", "VERSION"), "utf8")).toBe("1.0.0\n");
    expect(readdirSync(join(dataDir, "downloads"))).toEqual([]);
  });

  it("refuses a tampered tarball by its own hash check, removes it and stays on the old release", async () => {
    const { root, deps, frame, dataDir } = await fixture((body) => {
      const tampered = Buffer.from(body);
      tampered.writeUInt8(tampered.readUInt8(100) ^ 0x01, 100);
      return tampered;
    });
    const outcome = await selfUpgrade(frame, deps);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(
      new RegExp(`has SHA-256 [0-9a-f]{64}, not ${frame.sha256}; not installed`),
    );
    expect(readlinkSync(join(root, "current"))).toBe("llmgw-1.0.0");
    expect(existsSync(join(root, "llmgw-1.1.0"))).toBe(false);
    expect(readdirSync(join(dataDir, "downloads"))).toEqual([]);
  });

  it("does nothing when already on the version", async () => {
    const { deps, frame, requested } = await fixture();
    const outcome = await selfUpgrade(frame, { ...deps, runningVersion: "1.1.0" });
    expect(outcome).toEqual({ ok: true, error: "", alreadyCurrent: true });
    expect(requested).toEqual([]);
  });

  it("refuses when run from a checkout", async () => {
    const { deps, frame, requested } = await fixture();
    const outcome = await selfUpgrade(frame, {
      ...deps,
      install: () => installOrWhyNot(undefined),
    });
    expect(outcome.error).toMatch(/cannot upgrade itself: this process runs from a checkout/);
    expect(requested).toEqual([]);
  });

  it("refuses a frame that points the download anywhere but the release path", async () => {
    const { deps, frame, requested } = await fixture();
    const outcome = await selfUpgrade(
      { ...frame, urlPath: "/agent/v1/releases/../../secrets" },
      deps,
    );
    expect(outcome.error).toMatch(
      /is fetched from \/agent\/v1\/releases\/llmgw-1.1.0-linux-x64.tar.gz/,
    );
    expect(requested).toEqual([]);
  });
});

describe("the UpgradeAgent request", () => {
  function context(outcome: { ok: boolean; error: string; alreadyCurrent: boolean }) {
    const restarts: string[] = [];
    const ctx = {
      upgrade: {
        run: () => Promise.resolve(outcome),
        restart: () => void restarts.push("restart"),
      },
    } as unknown as RequestContext;
    return { ctx, restarts };
  }

  const envelope = (frame: ReturnType<typeof create<typeof UpgradeAgentSchema>>) =>
    ({ requestId: "u-1", msg: { case: "upgradeAgent", value: frame } }) as Parameters<
      ReturnType<typeof createRequestHandler>
    >[0];

  it("answers ok first and restarts only after the reply has gone", async () => {
    const { ctx, restarts } = context({ ok: true, error: "", alreadyCurrent: false });
    const reply = await createRequestHandler(ctx)(envelope(create(UpgradeAgentSchema, {})));
    expect(reply).toEqual({
      msg: { case: "upgradeReply", value: { ok: true, error: "", alreadyCurrent: false } },
    });
    expect(restarts).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(restarts).toEqual(["restart"]);
  });

  it("keeps running after a refusal or when already on the version", async () => {
    for (const outcome of [
      { ok: false, error: "hash mismatch", alreadyCurrent: false },
      { ok: true, error: "", alreadyCurrent: true },
    ]) {
      const { ctx, restarts } = context(outcome);
      await createRequestHandler(ctx)(envelope(create(UpgradeAgentSchema, {})));
      await new Promise((resolve) => setImmediate(resolve));
      expect(restarts).toEqual([]);
    }
  });
});
