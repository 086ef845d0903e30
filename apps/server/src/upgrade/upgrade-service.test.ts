// The control plane's upgrade steps with a real release store, real releases and a real install
// folder; the node's stream is a fake that answers as an agent would.
import { mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { Envelope } from "@llmgw/proto";
import { installOrWhyNot, swapCurrent, unpackRelease } from "@llmgw/release";
import { writeTestRelease } from "@llmgw/release/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { LiveNode } from "../fleet/registry";
import { ReleaseStore } from "../releases/release-store";
import { createUpgradeService, readyReplicasOn, type UpgradeServiceDeps } from "./upgrade-service";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "llmgw-upgrade-"));
  dirs.push(dir);
  return dir;
}

const ACTOR = { username: "root" };

function liveNode(
  name: string,
  agentVersion: string,
  features = ["replicas", "upgrade"],
): LiveNode {
  return {
    nodeId: `id-${name}`,
    register: { nodeName: name, agentVersion, features },
    isConnected: true,
  } as unknown as LiveNode;
}

async function setup(reply: (frame: Envelope["msg"]) => Envelope["msg"] | Error) {
  const store = new ReleaseStore(join(tempDir(), "releases"));
  const releases = tempDir();
  const next = await writeTestRelease(releases, "1.1.0");
  await store.add(
    "llmgw-1.1.0-linux-x64.tar.gz",
    Readable.from([readFileSync(next.file)]),
    next.sha256,
  );
  const root = tempDir();
  await unpackRelease((await writeTestRelease(releases, "1.0.0")).file, root, "1.0.0");
  await swapCurrent(root, "1.0.0");
  const events: string[] = [];
  const sent: Envelope["msg"][] = [];
  let restarts = 0;
  const deps: UpgradeServiceDeps = {
    serverVersion: "1.0.0",
    store,
    nodes: { list: () => Promise.resolve([]) },
    replicas: { list: () => Promise.resolve([]) },
    registry: { all: () => [liveNode("gpu-1", "1.0.0"), liveNode("old-1", "0.9.0", ["replicas"])] },
    links: {
      isConnected: () => true,
      request: (_nodeId, init) => {
        sent.push(init.msg as Envelope["msg"]);
        const answer = reply(init.msg as Envelope["msg"]);
        return answer instanceof Error
          ? Promise.reject(answer)
          : Promise.resolve({ requestId: "r", msg: answer } as Envelope);
      },
    },
    events: {
      record: (kind, subject, params) =>
        void events.push(`${kind} ${subject} ${JSON.stringify(params)}`),
    },
    nodeReplyTimeoutMs: 1_000,
    requestRestart: () => void (restarts += 1),
    install: () => installOrWhyNot(join(root, "llmgw-1.0.0")),
    log: () => undefined,
  };
  return { deps, root, events, sent, next, store, restarts: () => restarts };
}

const okReply = () =>
  ({
    case: "upgradeReply",
    value: { ok: true, error: "", alreadyCurrent: false },
  }) as Envelope["msg"];

describe("upgrade.controlPlane", () => {
  it("unpacks beside the running release, swaps current, records it and asks for a restart", async () => {
    const { deps, root, events, restarts } = await setup(okReply);
    const result = await createUpgradeService(deps).controlPlane("1.1.0", ACTOR);
    expect(result).toEqual({ from: "1.0.0", version: "1.1.0", isRestarting: true });
    expect(readlinkSync(join(root, "current"))).toBe("llmgw-1.1.0");
    expect(readFileSync(join(root, "llmgw-1.0.0", "VERSION"), "utf8")).toBe("1.0.0\n");
    expect(events).toEqual([
      `upgrade.control-plane 1.1.0 {"from":"1.0.0","to":"1.1.0","by":"root"}`,
    ]);
    expect(restarts()).toBe(1);
  });

  it("refuses from a checkout, saying so, and changes nothing", async () => {
    const { deps, restarts } = await setup(okReply);
    const service = createUpgradeService({ ...deps, install: () => installOrWhyNot(undefined) });
    await expect(service.controlPlane("1.1.0", ACTOR)).rejects.toMatchObject({
      refusal: { code: "upgrade.self_refused" },
      message: expect.stringMatching(/cannot upgrade itself: this process runs from a checkout/),
    });
    expect(restarts()).toBe(0);
  });

  it("refuses a stored release that no longer matches its checksum", async () => {
    const { deps, store, root } = await setup(okReply);
    writeFileSync(join(store.dir, "llmgw-1.1.0-linux-x64.tar.gz"), "swapped on disk");
    await expect(createUpgradeService(deps).controlPlane("1.1.0", ACTOR)).rejects.toMatchObject({
      refusal: { code: "release.refused" },
      message: expect.stringMatching(/no longer matches its SHA256SUMS entry/),
    });
    expect(readlinkSync(join(root, "current"))).toBe("llmgw-1.0.0");
  });

  it("does nothing when already on the version, and refuses a version not stored", async () => {
    const { deps, restarts } = await setup(okReply);
    const service = createUpgradeService({ ...deps, serverVersion: "1.1.0" });
    expect(await service.controlPlane("1.1.0", ACTOR)).toMatchObject({ isRestarting: false });
    await expect(service.controlPlane("2.0.0", ACTOR)).rejects.toMatchObject({
      refusal: { code: "release.not_found" },
    });
    expect(restarts()).toBe(0);
  });
});

describe("upgrade.node", () => {
  it("sends the stored release's name, hash and path, and records the steps", async () => {
    const { deps, events, sent, next } = await setup(okReply);
    const result = await createUpgradeService(deps).node("gpu-1", "1.1.0", ACTOR);
    expect(result).toEqual({
      nodeId: "id-gpu-1",
      name: "gpu-1",
      from: "1.0.0",
      version: "1.1.0",
      isRestarting: true,
    });
    expect(sent).toEqual([
      {
        case: "upgradeAgent",
        value: {
          version: "1.1.0",
          file: "llmgw-1.1.0-linux-x64.tar.gz",
          sha256: next.sha256,
          urlPath: "/agent/v1/releases/llmgw-1.1.0-linux-x64.tar.gz",
        },
      },
    ]);
    expect(events.map((e) => e.split(" ")[0])).toEqual([
      "upgrade.node-started",
      "upgrade.node-done",
    ]);
  });

  it("refuses with the agent's own reason and records the failure", async () => {
    const { deps, events } = await setup(
      () =>
        ({
          case: "upgradeReply",
          value: {
            ok: false,
            error: "the downloaded file has SHA-256 abc, not def",
            alreadyCurrent: false,
          },
        }) as Envelope["msg"],
    );
    await expect(createUpgradeService(deps).node("gpu-1", "1.1.0", ACTOR)).rejects.toMatchObject({
      refusal: {
        code: "upgrade.node_refused",
        params: { node: "gpu-1", reason: "the downloaded file has SHA-256 abc, not def" },
      },
    });
    expect(events[1]).toMatch(/^upgrade.node-failed id-gpu-1 .*SHA-256 abc/);
  });

  it("refuses a node whose agent cannot upgrade, and one that does not answer in time", async () => {
    const { deps } = await setup(() => new Error("node id-gpu-1 did not answer within 1000 ms"));
    const service = createUpgradeService(deps);
    await expect(service.node("old-1", "1.1.0", ACTOR)).rejects.toMatchObject({
      refusal: { code: "node.agent_too_old" },
    });
    await expect(service.node("gpu-1", "1.1.0", ACTOR)).rejects.toThrow(
      /did not upgrade to 1.1.0: node id-gpu-1 did not answer/,
    );
    await expect(service.node("nope", "1.1.0", ACTOR)).rejects.toMatchObject({
      refusal: { code: "node.not_found" },
    });
  });
});

describe("readyReplicasOn", () => {
  const spanning = {
    nodeId: "leader",
    phase: "ready" as const,
    shards: [{ nodeId: "leader" }, { nodeId: "worker" }],
  };
  it("counts a spanning replica on its worker's node as well as on its leader's", () => {
    expect(readyReplicasOn([spanning], "worker")).toBe(1);
    expect(readyReplicasOn([spanning], "leader")).toBe(1);
    expect(readyReplicasOn([spanning], "elsewhere")).toBe(0);
  });
  it("counts only ready replicas", () => {
    const starting = { nodeId: "n1", phase: "starting" as const, shards: [] };
    const ready = { nodeId: "n1", phase: "ready" as const, shards: [] };
    expect(readyReplicasOn([starting, ready], "n1")).toBe(1);
  });
});
