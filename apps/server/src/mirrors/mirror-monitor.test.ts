// The mirror monitor against real HTTP servers on loopback: a check marks a mirror up or down and
// looks up the catalog's files on it, the order follows, and removal is refused where it must be.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseModelDefinition } from "@llmgw/domain";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "@llmgw/testing";
import { MirrorMonitor } from "./mirror-monitor";

const servers: Server[] = [];
const monitors: MirrorMonitor[] = [];
afterEach(async () => {
  for (const monitor of monitors.splice(0)) await monitor.stop();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A mirror holding `held`, answering DELETE with `deleteStatus`. */
async function startMirror(held: string[], deleteStatus: number): Promise<string> {
  const server = createServer((request, response) => {
    const file = (request.url ?? "/").slice(1);
    if (request.method === "DELETE") return void response.writeHead(deleteStatus).end();
    response.writeHead(file === "" || held.includes(file) ? 200 : 404).end();
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

function model(name: string, source: string) {
  const parsed = parseModelDefinition({
    name,
    source,
    profiles: [{ name: "p", engine: "vllm", gpu: { min_memory_gb: 16 } }],
  });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return parsed.model;
}

async function monitorOf(list: { name: string; baseUrl: string }[]) {
  const audited: string[] = [];
  const monitor = new MirrorMonitor({
    list,
    checkIntervalMs: 60_000,
    models: () => [model("qwen", "mirror:org/qwen.gguf"), model("web", "https://h/x.gguf")],
    audit: async (_actor, action, target) => void audited.push(`${action} ${target}`),
    nowMs: Date.now,
    log: () => undefined,
  });
  monitors.push(monitor);
  monitor.start();
  await waitFor(
    async () =>
      (await monitor.list()).every(
        (mirror) =>
          mirror.state === "down" ||
          (mirror.state === "up" && mirror.files.every((file) => file.isHeld !== null)),
      ) || undefined,
    { what: "every mirror checked and its files looked up", timeoutMs: 30_000 },
  );
  return { monitor, audited };
}

describe("MirrorMonitor", () => {
  it("marks a primary that does not answer down, sends the peer first, and shows holdings", async () => {
    const dead = await startMirror([], 405);
    const closed = servers.pop();
    await new Promise((resolve) => closed?.close(resolve));
    const peer = await startMirror(["org/qwen.gguf"], 204);
    const { monitor } = await monitorOf([
      { name: "primary", baseUrl: dead },
      { name: "peer", baseUrl: peer },
    ]);
    expect(monitor.order().map((mirror) => mirror.name)).toEqual(["peer", "primary"]);
    const [primaryView, peerView] = await monitor.list();
    expect(primaryView).toMatchObject({ isPrimary: true, state: "down" });
    expect(primaryView?.lastError).toContain("did not answer");
    expect(peerView).toMatchObject({ state: "up", lastError: null });
    expect(peerView?.files).toEqual([{ path: "org/qwen.gguf", models: ["qwen"], isHeld: true }]);
  });

  it("refuses removing a file the catalog loads, and says when a mirror does not delete", async () => {
    const refusing = await startMirror(["org/qwen.gguf"], 405);
    const { monitor, audited } = await monitorOf([{ name: "main", baseUrl: refusing }]);
    const actor = { username: "op" };
    await expect(monitor.remove("main", "org/qwen.gguf", actor)).rejects.toMatchObject({
      refusal: { code: "mirror.file_in_use", params: { models: "qwen" } },
    });
    await expect(monitor.remove("main", "org/old.gguf", actor)).rejects.toMatchObject({
      refusal: { code: "mirror.cannot_delete", params: { mirror: "main", status: 405 } },
    });
    await expect(monitor.remove("main", "/etc/passwd", actor)).rejects.toMatchObject({
      refusal: { code: "mirror.path_invalid" },
    });
    await expect(monitor.remove("other", "org/old.gguf", actor)).rejects.toMatchObject({
      refusal: { code: "mirror.not_found", params: { mirrors: "main" } },
    });
    expect(audited).toEqual([]);
  });

  it("deletes a file no model loads, audited", async () => {
    const deleting = await startMirror([], 204);
    const { monitor, audited } = await monitorOf([{ name: "main", baseUrl: deleting }]);
    await expect(
      monitor.remove("main", "mirror:org/old.gguf", { username: "op" }),
    ).resolves.toEqual({ mirror: "main", path: "org/old.gguf" });
    expect(audited).toEqual(["mirror.remove main:org/old.gguf"]);
  });
});
