import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildLlamaCpp } from "./llamacpp-build";
import { LLAMACPP_SOURCE, llamaCppLayout } from "./llamacpp-source";

/** A registry that answers every tarball request with `body`: a mirror that was tampered with. */
async function fakeRegistry(
  body: string,
): Promise<{ url: string; server: Server; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(request.url ?? "");
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, asked };
}

describe("buildLlamaCpp", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("refuses a tarball whose sha512 is not the pinned one, and builds nothing from it", async () => {
    const engineDir = await mkdtemp(path.join(os.tmpdir(), "engines-"));
    const registry = await fakeRegistry("#!/bin/sh\necho not llama.cpp\n");
    cleanups.push(async () => {
      registry.server.close();
      await rm(engineDir, { recursive: true, force: true });
    });
    const lines: string[] = [];
    await expect(
      buildLlamaCpp({ engineDir, registryUrl: registry.url, onLine: (line) => lines.push(line) }),
    ).rejects.toThrow(/integrity sha512-\S+ is not the pinned sha512-\S+; refusing to build it/);
    expect(registry.asked).toEqual([
      `/node-llama-cpp/-/node-llama-cpp-${LLAMACPP_SOURCE.packageVersion}.tgz`,
    ]);
    const layout = llamaCppLayout(engineDir);
    expect(existsSync(layout.sourceDir)).toBe(false);
    expect(existsSync(layout.tarballFile)).toBe(false);
    expect(existsSync(layout.executable)).toBe(false);
    // The lock is given back, so a later attempt is not stuck behind this one.
    expect(existsSync(`${layout.rootDir}.lock`)).toBe(false);
  });
});
