// The start timeout counts from the last download progress: a slow download that keeps moving is
// not cut off by it, while a download that stops moving fails once the timeout has passed.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ReplicaPhase } from "@llmgw/proto";
import { waitFor } from "@llmgw/testing";
import { afterEach, describe, expect, it } from "vitest";
import { killStartedEngines, makeSupervisor, startSpec } from "../../test/replica-harness";

const servers: Server[] = [];
afterEach(async () => {
  killStartedEngines();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Sends `slices` of 8 KiB, `gapMs` apart; with `stallAfter` it stops sending and never ends. */
async function slowServer(slices: number, gapMs: number, stallAfter?: number): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-length": String(slices * 8192) });
    let sent = 0;
    const next = () => {
      if (sent === stallAfter) return;
      if (sent === slices) return void response.end();
      response.write(Buffer.alloc(8192));
      sent++;
      setTimeout(next, gapMs);
    };
    next();
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow.gguf`;
}

describe("start timeout", () => {
  it("lets a download longer than the timeout finish while it keeps making progress", async () => {
    const source = await slowServer(8, 700);
    const { supervisor, statuses } = makeSupervisor();
    const startedAtMs = Date.now();
    const replica = supervisor.start(
      startSpec({ source, startTimeoutMs: 3000, args: ["--ready-after-ms", "100"] }),
    );
    await waitFor(
      () => replica.phase === ReplicaPhase.READY || replica.phase === ReplicaPhase.FAILED,
      { timeoutMs: 30_000, what: "settled" },
    );
    expect(replica.message).toBe("ready");
    expect(Date.now() - startedAtMs).toBeGreaterThan(4500);
    const progress = statuses.flatMap((status) =>
      status.fetchProgress === undefined ? [] : [status.fetchProgress],
    );
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)).toBe(1);
  });

  it("fails a download that stops making progress once the timeout has passed", async () => {
    const source = await slowServer(8, 50, 2);
    const { supervisor } = makeSupervisor();
    const replica = supervisor.start(startSpec({ source, startTimeoutMs: 1000 }));
    await waitFor(() => replica.phase === ReplicaPhase.FAILED, {
      timeoutMs: 10_000,
      what: "FAILED",
    });
    expect(replica.message).toBe("fetch stalled: no download progress for 1 s (start timeout)");
    expect(replica.pid).toBe(0);
  });
});
