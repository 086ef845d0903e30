// docs/install.md as a test: release files to a control plane made by `server init`, two nodes
// joined with the command it printed, a model serving through /v1, and `ctl upgrade` rolling the
// fleet to a second release while an OpenAI client keeps asking (no request may fail); then a
// release whose agent cannot start stops after the first node and says which and why. Each
// "machine" has its own install root with a `current` link; a small loop stands in for systemd's
// Restart=always.
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cleanUpEnginesOf,
  cleanupAll,
  freePort,
  repoRoot,
  spawnProcess,
  tempDir,
  waitFor,
  type SpawnedProcess,
} from "@llmgw/testing";

const V1 = "1.0.0-it";
const V2 = "1.1.0-it";
const V3 = "1.2.0-it";
const NODES = ["node-a", "node-b"] as const;
// Two release builds (and the console's first next build) on a busy 2-core machine.
const SETUP_TIMEOUT_MS = 1_200_000;
const BARE_ENV = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` };

const tarball = (version: string) => `llmgw-${version}-linux-x64.tar.gz`;

let work: string;
let outDir: string;
const supervisors: Supervisor[] = [];

afterAll(async () => {
  await Promise.all(supervisors.map((supervisor) => supervisor.stop()));
  await cleanupAll();
});

/** systemd's Restart=always, RestartSec=1: starts `current/bin/llmgw ARGS` again whenever it exits. */
interface Supervisor {
  starts: number;
  output(): string;
  stop(): Promise<void>;
}

function supervise(name: string, root: string, args: string[], env: Record<string, string>) {
  let current: SpawnedProcess | undefined;
  let isStopped = false;
  const outputs: string[] = [];
  const supervisor: Supervisor = {
    starts: 0,
    output: () => [...outputs, current?.output() ?? ""].join("\n"),
    async stop() {
      isStopped = true;
      await current?.stop();
    },
  };
  const start = () => {
    if (isStopped) return;
    supervisor.starts += 1;
    // The link is read at each start, as systemd's ExecStart does.
    const process = spawnProcess(join(root, "current", "bin", "llmgw"), args, {
      name: `${name}#${supervisor.starts}`,
      baseEnv: { ...BARE_ENV, HOME: work },
      env,
    });
    current = process;
    void process.exited.then(() => {
      outputs.push(process.output());
      setTimeout(start, 1_000);
    });
  };
  start();
  supervisors.push(supervisor);
  return supervisor;
}

async function run(command: string, args: string[], options: { stdin?: string } = {}) {
  const process = spawnProcess(command, args, {
    name: args.slice(0, 2).join(" "),
    baseEnv: { ...BARE_ENV, HOME: work },
    stdin: options.stdin === undefined ? "ignore" : "pipe",
  });
  if (options.stdin !== undefined) process.child.stdin?.end(options.stdin);
  const { code } = await process.exited;
  return { code, output: process.output() };
}

function buildRelease(version: string): void {
  const build = spawnSync(
    process.execPath,
    [join(repoRoot(), "scripts", "release.mjs"), "--version", version, "--out", outDir],
    { cwd: repoRoot(), encoding: "utf8" },
  );
  if (build.status !== 0) throw new Error(`release ${version}: ${build.stdout}${build.stderr}`);
}

/** What step 1 of docs/install.md does on one machine. */
function install(root: string, version: string): string {
  const untar = spawnSync("tar", ["-xzf", join(outDir, tarball(version)), "-C", root]);
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr.toString()}`);
  spawnSync("ln", ["-sfn", `llmgw-${version}`, join(root, "current")]);
  return join(root, "current", "bin", "llmgw");
}

/** V2 with an agent that cannot start: its bin/llmgw refuses `agent`, everything else runs. */
function buildBrokenAgentRelease(): void {
  buildRelease(V3);
  const scratch = join(work, "broken");
  spawnSync("mkdir", ["-p", scratch]);
  spawnSync("tar", ["-xzf", join(outDir, tarball(V3)), "-C", scratch]);
  const bin = join(scratch, `llmgw-${V3}`, "bin", "llmgw");
  const script = readFileSync(bin, "utf8").split("\n");
  script.splice(
    1,
    0,
    'if [ "$1" = agent ]; then echo "llmgw: this agent is broken on purpose" >&2; exit 1; fi',
  );
  writeFileSync(bin, script.join("\n"));
  const pack = spawnSync("tar", ["-czf", join(outDir, tarball(V3)), "-C", scratch, `llmgw-${V3}`]);
  if (pack.status !== 0) throw new Error(`tar -c: ${pack.stderr.toString()}`);
  const sums = spawnSync("sha256sum", [tarball(V1), tarball(V2), tarball(V3)], {
    cwd: outDir,
    encoding: "utf8",
  });
  writeFileSync(join(outDir, "SHA256SUMS"), sums.stdout);
}

beforeAll(async () => {
  work = (await tempDir("install-upgrade")).path;
  outDir = join(work, "dist");
  buildRelease(V1);
  buildRelease(V2);
  buildBrokenAgentRelease();
}, SETUP_TIMEOUT_MS);

describe("from a release file to an upgraded fleet", () => {
  let cpBin: string;
  let apiUrl: string;
  let apiKey: string;
  const nodeRoots = new Map<string, string>();

  const ctl = (args: string[], stdin?: string) => run(cpBin, ["ctl", ...args], { stdin });
  const nodes = async () => {
    const listed = await ctl(["nodes", "--json"]);
    return JSON.parse(listed.output.slice(listed.output.indexOf("["))) as Array<{
      name: string;
      state: string;
      agentVersion: string;
    }>;
  };

  it("installs a control plane with server init and joins two nodes with its command", async () => {
    const cpRoot = join(work, "cp");
    spawnSync("mkdir", ["-p", cpRoot]);
    cpBin = install(cpRoot, V1);
    const home = join(work, "cp-home");
    const [port, agentPort] = [await freePort(), await freePort()];
    const init = await run(cpBin, [
      "server",
      "init",
      "--home",
      home,
      "--address",
      "127.0.0.1",
      "--port",
      String(port),
      "--agent-port",
      String(agentPort),
    ]);
    expect(init.code, init.output).toBe(0);
    const password = /password (\S+) {3}\(shown once\)/.exec(init.output)?.[1] ?? "";
    const joinLine = /agent join (wss:\/\/\S+) --token (\S+) --ca-sha256 ([0-9a-f]{64})/.exec(
      init.output,
    );
    expect(joinLine, init.output).not.toBeNull();
    // The operator's edits to server.env: short timings for a test's patience.
    appendFileSync(
      join(home, "server.env"),
      "LLMGW_HEARTBEAT_INTERVAL_MS=500\nLLMGW_BIND=127.0.0.1\n",
    );
    supervise("server", cpRoot, ["server", "--home", home], {});
    apiUrl = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${apiUrl}/healthz`)).ok, {
      what: "server",
      timeoutMs: 90_000,
    });
    const login = await ctl(
      ["login", "--server", apiUrl, "--user", "admin", "--password-stdin"],
      password,
    );
    expect(login.code, login.output).toBe(0);

    const [, url = "", token = "", pin = ""] = joinLine ?? [];
    for (const name of NODES) {
      const root = join(work, name);
      spawnSync("mkdir", ["-p", root]);
      const bin = install(root, V1);
      nodeRoots.set(name, root);
      const dataDir = join(work, `${name}-data`);
      cleanUpEnginesOf(dataDir, name);
      const joined = await run(bin, [
        "agent",
        "join",
        url,
        "--token",
        token,
        "--ca-sha256",
        pin,
        "--data-dir",
        dataDir,
        "--name",
        name,
      ]);
      expect(joined.code, joined.output).toBe(0);
      supervise(
        name,
        root,
        ["agent", "--data-dir", dataDir, "--name", name, "--simulate", "cpu"],
        {},
      );
    }
    await waitFor(
      async () => (await nodes()).filter((node) => node.state === "ready").length === 2,
      {
        what: "both nodes ready",
        timeoutMs: 90_000,
      },
    );
    expect((await nodes()).map((node) => node.agentVersion)).toEqual([V1, V1]);
  });

  it("serves a model through /v1 on both nodes", async () => {
    expect((await ctl(["model", "add", "sim-chat"])).code).toBe(0);
    const key = await ctl(["keys", "create", "--owner", "user:admin", "--models", "*", "--json"]);
    apiKey = (JSON.parse(key.output.slice(key.output.indexOf("{"))) as { key: string }).key;
    const client = new OpenAI({ baseURL: `${apiUrl}/v1`, apiKey, maxRetries: 0 });
    await waitFor(
      async () => {
        const reply = await client.chat.completions.create({
          model: "sim-chat",
          messages: [{ role: "user", content: "hi" }],
        });
        return reply.choices.length > 0;
      },
      { what: "sim-chat answering", timeoutMs: 120_000 },
    );
  });

  it("upgrades the control plane and then each node with /v1 serving the whole time", async () => {
    const added = await ctl(["release", "add", join(outDir, tarball(V2))]);
    expect(added.code, added.output).toBe(0);
    // A client as an application would hold it: the official one, with its usual retries of a
    // connection that is refused while the control plane restarts.
    const client = new OpenAI({ baseURL: `${apiUrl}/v1`, apiKey, maxRetries: 8 });
    const load = { ok: 0, failed: [] as string[], stop: false };
    const asking = (async () => {
      while (!load.stop) {
        try {
          await client.chat.completions.create({
            model: "sim-chat",
            messages: [{ role: "user", content: "hi" }],
          });
          load.ok += 1;
        } catch (error) {
          load.failed.push(String(error));
        }
      }
    })();
    const upgrade = await ctl(["upgrade", V2, "--timeout", "3m"]);
    load.stop = true;
    await asking;
    expect(upgrade.code, upgrade.output).toBe(0);
    for (const name of NODES) expect(upgrade.output).toContain(name);
    expect(load.failed).toEqual([]);
    expect(load.ok).toBeGreaterThan(10);

    const health = (await (await fetch(`${apiUrl}/healthz`)).json()) as { version: string };
    expect(health.version).toBe(V2);
    expect((await nodes()).map((node) => node.agentVersion)).toEqual([V2, V2]);
    // Every machine swapped its link and kept the old release beside the new one.
    for (const root of [join(work, "cp"), ...nodeRoots.values()]) {
      expect(readlinkSync(join(root, "current"))).toBe(`llmgw-${V2}`);
      expect(existsSync(join(root, `llmgw-${V1}`, "VERSION"))).toBe(true);
    }
    // Running it again resumes: nothing is left to do.
    const again = await ctl(["upgrade", V2, "--timeout", "1m"]);
    expect(again.code, again.output).toBe(0);
  });

  it("stops after the first node when the new release's agent cannot start, saying which and why", async () => {
    expect((await ctl(["release", "add", join(outDir, tarball(V3))])).code).toBe(0);
    const upgrade = await ctl(["upgrade", V3, "--timeout", "45s"]);
    expect(upgrade.code, upgrade.output).toBe(1);
    expect(upgrade.output).toContain("node-a");
    expect(upgrade.output).toMatch(/did not reconnect/);
    // The bad release reached one machine: node-b still runs V2 and was never told.
    const byName = new Map((await nodes()).map((node) => [node.name, node]));
    expect(byName.get("node-b")?.agentVersion).toBe(V2);
    expect(readlinkSync(join(nodeRoots.get("node-b") ?? "", "current"))).toBe(`llmgw-${V2}`);
  });
});
