// `llmgw server add` as an operator runs it: a first control plane made by init on PostgreSQL and
// started (it makes the master key), a second home made from the first's, and a second server
// started from that home against the same store, signing in the first's admin and presenting a
// certificate of its own that chains to the same cluster CA.
import { connect, type PeerCertificate } from "node:tls";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ADMIN_PASSWORD,
  cleanupAll,
  freePort,
  spawnLlmgw,
  startPostgres,
  tempDir,
  waitFor,
} from "@llmgw/testing";
import { apiClient, sessionToken } from "./harness";

afterAll(cleanupAll);

async function llmgw(args: string[], env: Record<string, string | undefined> = {}) {
  const run = spawnLlmgw(args, { name: args.slice(0, 2).join(" "), env });
  const { code } = await run.exited;
  return { code, output: run.output() };
}

async function serve(home: string, port: number) {
  const server = spawnLlmgw(["server", "--home", home], {
    name: `server ${port}`,
    env: { LLMGW_HOME: undefined, DATABASE_URL: undefined, LLMGW_BIND: "127.0.0.1" },
  });
  const apiUrl = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${apiUrl}/healthz`)).ok, {
    what: `server on ${port}`,
    timeoutMs: 60_000,
  });
  return { server, apiUrl };
}

/** The certificate a server presents on its agent port, checked against the CA given. */
function presented(port: number, caPem: string): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, ca: caPem, servername: "localhost" }, () => {
      const cert = socket.getPeerCertificate();
      socket.end();
      resolve(cert);
    });
    socket.once("error", reject);
  });
}

describe("llmgw server add", () => {
  it("gives a second control plane that starts on the first's store and CA", async () => {
    const pg = await startPostgres();
    const dir = (await tempDir("server-add")).path;
    const [first, second] = [join(dir, "first"), join(dir, "second")];
    const ports = { api1: await freePort(), agent1: await freePort() };
    const init = await llmgw(
      ["server", "init", "--home", first, "--port", String(ports.api1)].concat([
        "--agent-port",
        String(ports.agent1),
      ]),
      { DATABASE_URL: pg.url, LLMGW_ADMIN_PASSWORD: ADMIN_PASSWORD, LLMGW_HOME: undefined },
    );
    expect(init.code, init.output).toBe(0);

    // Before the first has ever started, it has no master key to share.
    const tooEarly = await llmgw(["server", "add", "--home", second, "--from", first]);
    expect(tooEarly.code, tooEarly.output).toBe(1);
    expect(tooEarly.output).toContain("master.key is missing");

    const one = await serve(first, ports.api1);
    const api2 = await freePort();
    const agent2 = await freePort();
    const add = await llmgw([
      ...["server", "add", "--home", second, "--from", first, "--address", "127.0.0.1"],
      ...["--port", String(api2), "--agent-port", String(agent2)],
    ]);
    expect(add.code, add.output).toBe(0);
    expect(add.output).not.toMatch(/password|--token/);

    const two = await serve(second, api2);
    // Same store: the first's admin signs in on the second, and the second opened the sealed
    // replica-key secret the first made (it would refuse to start under another master key).
    const admin = apiClient(two.apiUrl, await sessionToken(two.apiUrl, "admin", ADMIN_PASSWORD));
    expect((await admin.auth.me.query()).username).toBe("admin");
    expect(two.server.output()).not.toContain("does not open");

    const caPem = readFileSync(join(first, "pki", "ca.crt"), "utf8");
    const [cert1, cert2] = [await presented(ports.agent1, caPem), await presented(agent2, caPem)];
    expect(cert2.fingerprint256).not.toBe(cert1.fingerprint256);
    expect(cert2.issuer.CN).toBe(cert1.issuer.CN);
    expect(cert2.subjectaltname).toContain("IP Address:127.0.0.1");

    await two.server.stop();
    await one.server.stop();
    await pg.stop();
  });

  it("refuses an address and says remote add is not built", async () => {
    const dir = (await tempDir("server-add-remote")).path;
    const { code, output } = await llmgw([
      ...["server", "add", "--home", join(dir, "h"), "--from", "https://cp1.example:8081"],
    ]);
    expect(code).toBe(1);
    expect(output).toContain("is not built");
  });
});
