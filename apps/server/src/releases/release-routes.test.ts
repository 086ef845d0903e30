// The release store's two HTTP doors on a real loopback listener: uploads (PUT /api/releases/…,
// admins only, checked before they are kept) and downloads for agents (GET /agent/v1/releases/…).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { UserView } from "@llmgw/api";
import { writeTestRelease } from "@llmgw/release/testing";
import { afterEach, describe, expect, it } from "vitest";
import { ReleaseStore } from "./release-store";
import { handleReleaseUpload, RELEASE_UPLOAD_PREFIX, serveRelease } from "./release-routes";

const dirs: string[] = [];
const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "llmgw-releases-"));
  dirs.push(dir);
  return dir;
}

const USERS: Record<string, UserView> = {
  "admin-token": { username: "root", role: "admin" } as UserView,
  "operator-token": { username: "ops", role: "operator" } as UserView,
};

async function start(bytesMax = 1024 * 1024) {
  const store = new ReleaseStore(join(tempDir(), "releases"), bytesMax);
  const recorded: string[] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const handled = path.startsWith(RELEASE_UPLOAD_PREFIX)
      ? handleReleaseUpload(req, res, path, {
          store,
          sessionUser: (token) => Promise.resolve(USERS[token] ?? null),
          events: { record: (kind, subject) => void recorded.push(`${kind} ${subject}`) },
          log: () => undefined,
        })
      : serveRelease(req, res, store);
    void handled;
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, store, recorded };
}

function upload(base: string, file: string, body: Buffer, sha256: string, token = "admin-token") {
  return fetch(`${base}/api/releases/${file}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "x-llmgw-sha256": sha256 },
    body,
  });
}

describe("release uploads", () => {
  it("keeps a checked release, lists it, serves it to agents whole", async () => {
    const { base, store, recorded } = await start();
    const release = await writeTestRelease(tempDir(), "1.2.0");
    const body = readFileSync(release.file);
    const res = await upload(base, basename(release.file), body, release.sha256);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      version: "1.2.0",
      sha256: release.sha256,
      bytes: body.length,
    });
    expect((await store.list()).map((r) => r.version)).toEqual(["1.2.0"]);
    expect(readFileSync(join(store.dir, "SHA256SUMS"), "utf8")).toBe(
      `${release.sha256}  ${basename(release.file)}\n`,
    );
    expect(recorded).toEqual(["release.added 1.2.0"]);
    const fetched = await fetch(`${base}/agent/v1/releases/${basename(release.file)}`);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("content-length")).toBe(String(body.length));
    expect(Buffer.from(await fetched.arrayBuffer()).equals(body)).toBe(true);
  });

  it("refuses a body whose hash is not the one sent, and keeps nothing", async () => {
    const { base, store } = await start();
    const release = await writeTestRelease(tempDir(), "1.2.0");
    const tampered = readFileSync(release.file);
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 1) ^ 0xff, tampered.length - 1);
    const res = await upload(base, basename(release.file), tampered, release.sha256);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: "hash-mismatch",
      message: expect.stringMatching(/SHA-256 is [0-9a-f]{64}, not/),
    });
    expect(await store.list()).toEqual([]);
  });

  it("refuses a name that is not a release file's", async () => {
    const { base } = await start();
    const release = await writeTestRelease(tempDir(), "1.2.0");
    const res = await upload(
      base,
      "llmgw-..%2F..%2Fx-linux-x64.tar.gz",
      readFileSync(release.file),
      release.sha256,
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("bad-name");
  });

  it("refuses a tarball whose VERSION is not the name's version", async () => {
    const { base } = await start();
    const release = await writeTestRelease(tempDir(), "1.2.0", { says: "1.1.0" });
    const res = await upload(
      base,
      basename(release.file),
      readFileSync(release.file),
      release.sha256,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "version-mismatch",
      message: expect.stringMatching(/says "1.1.0"/),
    });
  });

  it("refuses a body over the limit", async () => {
    const { base, store } = await start(64);
    const release = await writeTestRelease(tempDir(), "1.2.0");
    const res = await upload(
      base,
      basename(release.file),
      readFileSync(release.file),
      release.sha256,
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("too-large");
    expect(await store.list()).toEqual([]);
  });

  it("lets only a signed-in admin upload", async () => {
    const { base } = await start();
    const release = await writeTestRelease(tempDir(), "1.2.0");
    const body = readFileSync(release.file);
    expect(
      (await upload(base, basename(release.file), body, release.sha256, "operator-token")).status,
    ).toBe(403);
    expect(
      (await upload(base, basename(release.file), body, release.sha256, "forged")).status,
    ).toBe(401);
  });
});

describe("release downloads", () => {
  it("answers 404 for an unknown release and for a path that climbs out", async () => {
    const { base, store } = await start();
    const release = await writeTestRelease(tempDir(), "1.2.0");
    await upload(base, basename(release.file), readFileSync(release.file), release.sha256);
    expect((await fetch(`${base}/agent/v1/releases/llmgw-9.9.9-linux-x64.tar.gz`)).status).toBe(
      404,
    );
    const attack = await fetch(`${base}/agent/v1/releases/..%2F..%2F..%2Fetc%2Fpasswd`);
    expect(attack.status).toBe(404);
    expect((await fetch(`${base}/agent/v1/releases/SHA256SUMS`)).status).toBe(404);
    expect(store.dir).toContain("releases");
  });
});
