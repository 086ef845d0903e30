// Rolling-upgrade plumbing on a real server and a real agent process, both run from this checkout:
// a release uploaded over HTTP, served on the agent port, and the UpgradeAgent round trip over the
// agent's stream (a checkout refuses to upgrade itself, and says so through the server).
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { request } from "node:https";
import { joinAs, nodeTlsOptions, tempDir, waitFor, type NodeIdentity } from "@llmgw/testing";
import { writeTestRelease } from "@llmgw/release/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, sessionToken, startFleet, type Fleet } from "./harness";

/** A GET on the agent port over TLS, as `node` when given; the body as bytes (a tarball). */
function fetchFromAgentPort(path: string, node: NodeIdentity | undefined) {
  const url = `${fleet.server.agentUrl.replace(/^wss:/, "https:")}${path}`;
  return new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    const req = request(url, nodeTlsOptions(fleet.server, node), (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

let fleet: Fleet;

describe("rolling upgrade plumbing", () => {
  let release: { file: string; sha256: string };
  beforeAll(async () => {
    fleet = await startFleet({ agents: [{ name: "it-upgrade", profile: "cpu" }] });
    release = await writeTestRelease((await tempDir("it-release")).path, "1.1.0");
  });
  afterAll(async () => fleet.stop());

  it("stores an uploaded release and serves it on the agent port, and nothing else", async () => {
    const token = await sessionToken(fleet.server.apiUrl, "admin", ADMIN_PASSWORD);
    const body = readFileSync(release.file);
    const name = basename(release.file);
    const res = await fetch(`${fleet.server.apiUrl}/api/releases/${name}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "x-llmgw-sha256": release.sha256 },
      body,
    });
    expect(res.status).toBe(200);
    expect((await fleet.api.releases.list.query()).map((r) => r.version)).toEqual(["1.1.0"]);
    // Only a node of this cluster may fetch it: a stranger on the agent port is refused.
    const stranger = await fetchFromAgentPort(`/agent/v1/releases/${name}`, undefined);
    expect(stranger.status).toBe(401);
    const node = await joinAs(fleet.server, "it-release-fetcher");
    const fetched = await fetchFromAgentPort(`/agent/v1/releases/${name}`, node);
    expect(fetched.status).toBe(200);
    expect(fetched.body.equals(body)).toBe(true);
    const traversal = await fetchFromAgentPort("/agent/v1/releases/..%2F..%2Fpki%2Fca.key", node);
    expect(traversal.status).toBe(404);
    const health = (await (await fetch(`${fleet.server.apiUrl}/healthz`)).json()) as {
      version: string;
    };
    expect(health.version).toBe("0.1.0-dev");
  });

  it("plans, and refuses to upgrade a checkout with the reason, over the agent's own stream", async () => {
    const node = await waitFor(
      async () =>
        (await fleet.api.upgrade.plan.query()).nodes.find(
          (n) => n.name === "it-upgrade" && n.isReady,
        ),
      { what: "it-upgrade ready in the upgrade plan", timeoutMs: 30_000 },
    );
    expect(node).toMatchObject({ agentVersion: "0.1.0-dev", isConnected: true, canUpgrade: true });
    const plan = await fleet.api.upgrade.plan.query();
    expect(plan.serverRefusal).toMatch(/runs from a checkout/);
    await expect(fleet.api.upgrade.controlPlane.mutate({ version: "1.1.0" })).rejects.toThrow(
      /the control plane cannot upgrade itself: this process runs from a checkout/,
    );
    await expect(
      fleet.api.upgrade.node.mutate({ nodeId: "it-upgrade", version: "1.1.0" }),
    ).rejects.toThrow(
      /node "it-upgrade" did not upgrade to 1.1.0: this agent cannot upgrade itself: this process runs from a checkout/,
    );
    const events = await fleet.api.events.list.query({
      kinds: ["upgrade.node-started", "upgrade.node-failed"],
    });
    expect(events.events.map((e) => e.kind).sort()).toEqual([
      "upgrade.node-failed",
      "upgrade.node-started",
    ]);
  });
});
