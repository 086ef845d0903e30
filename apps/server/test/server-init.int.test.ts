// `llmgw server init` as an operator runs it: a home made once, kept when run again, a server
// that starts from it, the admin password it printed, and the join command it printed bringing a
// real agent in over TLS.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  cleanupAll,
  freePort,
  spawnLlmgw,
  tempDir,
  waitFor,
  type SpawnedProcess,
} from "@llmgw/testing";
import { apiClient, sessionToken } from "./harness";

afterAll(cleanupAll);

async function runInit(args: string[]): Promise<{ code: number | null; output: string }> {
  const init = spawnLlmgw(["server", "init", ...args], { name: "server init" });
  const { code } = await init.exited;
  return { code, output: init.output() };
}

function must(match: RegExpMatchArray | null, what: string): string {
  const value = match?.[1];
  if (value === undefined) throw new Error(`init printed no ${what}`);
  return value;
}

describe("llmgw server init", () => {
  it("makes a home once, keeps it on a second run, and prints a join command that works", async () => {
    const home = join((await tempDir("init-home")).path, "home");
    const [port, agentPort] = [await freePort(), await freePort()];
    const args = ["--home", home, "--address", "127.0.0.1", "--port", String(port)];
    const first = await runInit([...args, "--agent-port", String(agentPort), "--user", "svc"]);
    expect(first.code, first.output).toBe(0);
    const password = must(/password (\S+) {3}\(shown once\)/.exec(first.output), "password");
    const fingerprint = must(/--ca-sha256 ([0-9a-f]{64})/.exec(first.output), "CA pin");
    const token = must(/--token (\S+)/.exec(first.output), "token");
    expect(first.output).toContain(`agent join wss://127.0.0.1:${agentPort} --token`);
    // The CA key and the settings are the operator's alone; the units are there to install.
    expect(statSync(join(home, "pki", "ca.key")).mode & 0o077).toBe(0);
    expect(statSync(join(home, "server.env")).mode & 0o077).toBe(0);
    expect(readFileSync(join(home, "systemd", "llmgw-agent.service"), "utf8")).toContain(
      "User=svc",
    );
    const caBefore = readFileSync(join(home, "pki", "ca.crt"), "utf8");

    // Run again: nothing kept is replaced, no second admin password is printed.
    const second = await runInit([...args, "--agent-port", "1"]);
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain("kept: it already exists");
    expect(second.output).toContain("kept: the store already has people");
    expect(second.output).not.toContain("shown once");
    expect(second.output).toContain(`--ca-sha256 ${fingerprint}`);
    expect(readFileSync(join(home, "pki", "ca.crt"), "utf8")).toBe(caBefore);
    // The first run's settings stand: the second run's --agent-port is not written over them.
    expect(readFileSync(join(home, "server.env"), "utf8")).toContain(
      `LLMGW_AGENT_PORT=${agentPort}`,
    );

    const server = spawnLlmgw(["server", "--home", home], {
      name: "server",
      env: { LLMGW_HOME: undefined },
    });
    const apiUrl = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${apiUrl}/healthz`)).ok, {
      what: "server",
      timeoutMs: 60_000,
    });
    const api = apiClient(apiUrl, await sessionToken(apiUrl, "admin", password));

    // While it runs, init refuses to open the store under it.
    const whileRunning = await runInit(args);
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.output).toContain("stop it before running init again");

    const dataDir = (await tempDir("init-agent")).path;
    const join_ = spawnLlmgw(
      [
        "agent",
        "join",
        `wss://127.0.0.1:${agentPort}`,
        "--token",
        token,
        "--ca-sha256",
        fingerprint,
        "--data-dir",
        dataDir,
        "--name",
        "init-node",
      ],
      { name: "agent join" },
    );
    expect((await join_.exited).code, join_.output()).toBe(0);
    const agent: SpawnedProcess = spawnLlmgw(
      ["agent", "--data-dir", dataDir, "--simulate", "cpu", "--name", "init-node"],
      {
        name: "agent",
        env: { LLMGW_JOIN_TOKEN: undefined },
      },
    );
    await waitFor(
      async () =>
        (await api.nodes.list.query()).some(
          (node) => node.name === "init-node" && node.state === "ready",
        ),
      {
        what: "the joined node ready",
        timeoutMs: 60_000,
      },
    );
    await agent.stop();
    await server.stop();
  });

  it("says what is wrong with a flag it does not know", async () => {
    const { code, output } = await runInit(["--hme", "/tmp/x"]);
    expect(code).toBe(2);
    expect(output).toContain("--hme");
    expect(output).toContain("usage: llmgw server init");
  });
});
