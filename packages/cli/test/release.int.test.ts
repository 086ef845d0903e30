// The release as an operator gets it: `npm run release` builds a tarball and its SHA256SUMS line;
// unpacked in a temp folder far from any node_modules, with nothing on PATH but node and the
// system's tools, its bin/llmgw prints the version, runs a server on PGlite, an agent that
// registers with it, and the console.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { caFingerprint } from "@llmgw/pki";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_PASSWORD,
  createJoinToken,
  freePort,
  repoRoot,
  spawnProcess,
  tempDir,
  waitFor,
  type SpawnedProcess,
} from "@llmgw/testing";

const VERSION = "9.8.7-it.1";
const TARBALL = `llmgw-${VERSION}-linux-x64.tar.gz`;
const OTHER_VERSION_LINE = `${"ab".repeat(32)}  llmgw-1.0.0-linux-x64.tar.gz`;
// The first build of the console (next build) alone can take minutes on a busy 2-core machine.
const BUILD_TIMEOUT_MS = 900_000;

/** node and the system's tools only: no pnpm, no tsx, no checkout on the way. */
const BARE_ENV = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` };

let outDir: string;
let releaseDir: string;
let bin: string;

function runRelease(args: string[]): Promise<{ code: number | null; output: string }> {
  const build = spawnProcess(
    process.execPath,
    [join(repoRoot(), "scripts", "release.mjs"), ...args],
    {
      name: "release",
      cwd: repoRoot(),
    },
  );
  return build.exited.then((exit) => ({ code: exit.code, output: build.output() }));
}

function startFromRelease(name: string, args: string[], env: Record<string, string>) {
  return spawnProcess(bin, args, { name, baseEnv: { ...BARE_ENV, HOME: outDir }, env });
}

beforeAll(async () => {
  outDir = (await tempDir("release-out")).path;
  writeFileSync(join(outDir, "SHA256SUMS"), `${OTHER_VERSION_LINE}\n`);
  const built = await runRelease(["--version", VERSION, "--out", outDir]);
  if (built.code !== 0) throw new Error(`npm run release failed:\n${built.output}`);
  const unpackDir = (await tempDir("release-unpacked")).path;
  const untar = spawnSync("tar", ["-xzf", join(outDir, TARBALL), "-C", unpackDir]);
  if (untar.status !== 0) throw new Error(`tar -x failed: ${untar.stderr.toString()}`);
  releaseDir = join(unpackDir, `llmgw-${VERSION}`);
  bin = join(releaseDir, "bin", "llmgw");
}, BUILD_TIMEOUT_MS);

describe("npm run release", () => {
  it("refuses a version that is not a release version, naming the rule", async () => {
    const refused = await runRelease(["--version", "v1.2", "--out", outDir]);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('--version "v1.2" is not a release version');
    expect(refused.output).toContain(String.raw`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`);
  });

  it("writes the tarball's sha256 into SHA256SUMS and keeps other versions' lines", () => {
    const sha256 = createHash("sha256")
      .update(readFileSync(join(outDir, TARBALL)))
      .digest("hex");
    const lines = readFileSync(join(outDir, "SHA256SUMS"), "utf8").trimEnd().split("\n");
    expect(lines).toEqual([OTHER_VERSION_LINE, `${sha256}  ${TARBALL}`]);
    const check = spawnSync("sha256sum", ["--check", "--ignore-missing", "SHA256SUMS"], {
      cwd: outDir,
    });
    expect(check.stdout.toString()).toContain(`${TARBALL}: OK`);
  });

  it("holds one folder with VERSION, bin/llmgw, the bundle, migrations and the console", () => {
    expect(readFileSync(join(releaseDir, "VERSION"), "utf8")).toBe(`${VERSION}\n`);
    for (const path of [
      "lib/llmgw.mjs",
      "lib/node_modules/@electric-sql/pglite/package.json",
      "drizzle/meta/_journal.json",
      "web/apps/web/server.js",
      "web/apps/web/.next/static",
    ]) {
      expect(existsSync(join(releaseDir, path)), path).toBe(true);
    }
    // Nothing in the bundle may point back into the checkout it was built from.
    expect(readFileSync(join(releaseDir, "lib", "llmgw.mjs"), "utf8")).not.toContain(repoRoot());
  });
});

describe("an unpacked release, with Node.js alone", () => {
  let apiUrl: string;
  let agentPort: number;
  let serverHome: string;
  const started: SpawnedProcess[] = [];

  afterAll(async () => {
    await Promise.all(started.map((process) => process.stop()));
  });

  it("prints its version for --version and -V", () => {
    for (const flag of ["--version", "-V"]) {
      const run = spawnSync(bin, [flag], { env: BARE_ENV });
      expect(run.status).toBe(0);
      expect(run.stdout.toString()).toBe(`${VERSION}\n`);
    }
  });

  it("runs through a link to bin/llmgw from elsewhere (how it is put on PATH)", async () => {
    const linkDir = (await tempDir("release-link")).path;
    symlinkSync(bin, join(linkDir, "llmgw"));
    const run = spawnSync(join(linkDir, "llmgw"), ["--version"], { env: BARE_ENV });
    expect(run.stderr.toString()).toBe("");
    expect(run.stdout.toString()).toBe(`${VERSION}\n`);
  });

  it("says that Node.js 20 is needed when no node is on PATH", async () => {
    // Only the tools the script itself uses; no node among them.
    const toolsDir = (await tempDir("release-no-node")).path;
    for (const tool of ["dirname", "readlink"])
      symlinkSync(`/usr/bin/${tool}`, join(toolsDir, tool));
    const run = spawnSync("/bin/sh", [bin, "--version"], { env: { PATH: toolsDir } });
    expect(run.status).toBe(127);
    expect(run.stderr.toString()).toContain("Node.js 20 or newer is needed");
  });

  it("preloads the system's jemalloc with its options unless LLMGW_MALLOC=system, and refuses another value", async () => {
    // A stand-in for node that prints what the launcher handed it.
    const fakeDir = (await tempDir("release-fake-node")).path;
    writeFileSync(
      join(fakeDir, "node"),
      '#!/bin/sh\necho "preload=${LD_PRELOAD:-} lib=${LLMGW_MALLOC_LIB:-} conf=${MALLOC_CONF:-}"\n',
      { mode: 0o755 },
    );
    const launch = (env: Record<string, string>) =>
      spawnSync(bin, ["--version"], { env: { PATH: `${fakeDir}:/usr/bin:/bin`, ...env } });
    const jemalloc = `/usr/lib/${process.arch === "arm64" ? "aarch64" : "x86_64"}-linux-gnu/libjemalloc.so.2`;
    expect(existsSync(jemalloc), `${jemalloc} (Debian's libjemalloc2, installed by npm test)`).toBe(
      true,
    );

    // jemalloc gives freed pages back at once (its default keeps them 10 s).
    const conf = "dirty_decay_ms:0,muzzy_decay_ms:0";
    expect(launch({}).stdout.toString()).toBe(`preload=${jemalloc} lib=${jemalloc} conf=${conf}\n`);
    // An operator's own preload stays first; an operator's own jemalloc options are used instead.
    expect(launch({ LD_PRELOAD: "/opt/mine.so" }).stdout.toString()).toBe(
      `preload=/opt/mine.so:${jemalloc} lib=${jemalloc} conf=${conf}\n`,
    );
    expect(launch({ MALLOC_CONF: "narenas:1" }).stdout.toString()).toBe(
      `preload=${jemalloc} lib=${jemalloc} conf=narenas:1\n`,
    );
    expect(launch({ LLMGW_MALLOC: "system" }).stdout.toString()).toBe("preload= lib= conf=\n");
    const refused = launch({ LLMGW_MALLOC: "tcmalloc" });
    expect(refused.status).toBe(2);
    expect(refused.stdout.toString()).toBe("");
    expect(refused.stderr.toString()).toContain(
      'LLMGW_MALLOC must be jemalloc or system, not "tcmalloc"',
    );
  });

  it("starts node with V8's old generation held to half again its live size", async () => {
    // A stand-in for node that prints the arguments the launcher gave it.
    const fakeDir = (await tempDir("release-fake-node-args")).path;
    writeFileSync(join(fakeDir, "node"), '#!/bin/sh\necho "$@"\n', { mode: 0o755 });
    const run = spawnSync(bin, ["server", "--x"], {
      env: { PATH: `${fakeDir}:/usr/bin:/bin`, LLMGW_MALLOC: "system" },
    });
    expect(run.stdout.toString()).toBe(
      `--heap-growing-percent=50 ${join(realpathSync(releaseDir), "lib", "llmgw.mjs")} server --x\n`,
    );
    // The node on PATH accepts the flag: a flag it did not know would stop it before --version.
    expect(spawnSync(bin, ["--version"], { env: BARE_ENV }).stdout.toString()).toBe(`${VERSION}\n`);
  });

  it("runs a server on PGlite that answers /healthz", async () => {
    const httpPort = await freePort();
    agentPort = await freePort();
    apiUrl = `http://127.0.0.1:${httpPort}`;
    serverHome = (await tempDir("release-home")).path;
    const server = startFromRelease("release server", ["server"], {
      LLMGW_HOME: serverHome,
      LLMGW_PORT: String(httpPort),
      LLMGW_AGENT_PORT: String(agentPort),
      LLMGW_AGENT_BIND: "127.0.0.1",
      LLMGW_ADMIN_PASSWORD: ADMIN_PASSWORD,
    });
    started.push(server);
    const health = await waitFor(
      async () => {
        const response = await fetch(`${apiUrl}/healthz`);
        return response.ok && ((await response.json()) as { ok: boolean });
      },
      { what: "the release's server /healthz", timeoutMs: 60_000 },
    );
    expect(health).toEqual({ ok: true, version: VERSION });
    // The launcher's jemalloc is really the server's allocator, and the server says so.
    expect(readFileSync(`/proc/${server.pid}/maps`, "utf8")).toMatch(/\/libjemalloc\.so\.2$/m);
    expect(server.output()).toMatch(/listening: .*, memory allocator jemalloc$/m);
  });

  it("runs an agent that registers with that server, which reports the release's version", async () => {
    const agent = await startReleaseAgent();
    started.push(agent);
    const registered = await agent.waitForOutput(/registered .*server_version=(\S+)/, 60_000);
    expect(registered[1]).toBe(VERSION);
  });

  it("runs the console, which serves /sign-in", async () => {
    const webPort = await freePort();
    const web = startFromRelease("release web", ["web"], {
      LLMGW_WEB_PORT: String(webPort),
      LLMGW_API_URL: apiUrl,
    });
    started.push(web);
    const page = await waitFor(
      async () => {
        const response = await fetch(`http://127.0.0.1:${webPort}/sign-in`);
        return response.status === 200 && response.text();
      },
      { what: "the release's console /sign-in", timeoutMs: 60_000 },
    );
    expect(page).toContain("<title>llmgw");
    const stylesheet = page.match(/\/_next\/static\/[^"]+\.css/)?.[0];
    expect(stylesheet, "the page links a stylesheet").toBeDefined();
    const css = await fetch(`http://127.0.0.1:${webPort}${stylesheet ?? ""}`);
    expect(css.status).toBe(200);
  });

  /** The agent's side of the link: it joins over TLS with a token and the CA pin, then connects. */
  async function startReleaseAgent(): Promise<SpawnedProcess> {
    const dataDir = (await tempDir("release-agent")).path;
    return startFromRelease(
      "release agent",
      [
        "agent",
        "--server",
        `wss://127.0.0.1:${agentPort}`,
        "--name",
        "release-node",
        "--simulate",
        "cpu",
      ],
      {
        LLMGW_JOIN_TOKEN: await createJoinToken(apiUrl),
        LLMGW_CA_SHA256: caFingerprint(readFileSync(join(serverHome, "pki", "ca.crt"), "utf8")),
        LLMGW_AGENT_DATA_DIR: dataDir,
      },
    );
  }
});
