import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadServerUrls, nodeTlsPaths, saveServerUrls } from "./node-tls";
import { mergeServerUrls, ServerRotation } from "./server-list";

const A = "wss://cp-a:8081";
const B = "wss://cp-b:8081";
const C = "wss://cp-c:8081";

describe("mergeServerUrls", () => {
  it("puts the current one first, keeps the known order, appends the new, without duplicates", () => {
    expect(mergeServerUrls(B, [A, B], [B, C, A])).toEqual([B, A, C]);
  });

  it("keeps known addresses the server did not name (an IP, a load balancer)", () => {
    expect(mergeServerUrls(A, [A, "wss://10.0.0.9:8081"], [B])).toEqual([
      A,
      "wss://10.0.0.9:8081",
      B,
    ]);
  });

  it("is null when the server names nothing or nothing new", () => {
    expect(mergeServerUrls(A, [A, B], [])).toBeNull();
    expect(mergeServerUrls(A, [A, B], [B, A])).toBeNull();
  });

  it("ignores what is not a ws:// or wss:// address", () => {
    expect(mergeServerUrls(A, [A], ["", "  ", "nonsense", "https://cp-b:8081", ` ${C} `])).toEqual([
      A,
      C,
    ]);
    expect(mergeServerUrls(A, [A], ["file:///etc/passwd"])).toBeNull();
  });
});

describe("the saved list of control planes", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it("is what a restarted agent reads back, replacing what join saved", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "llmgw-servers-"));
    dirs.push(dataDir);
    saveServerUrls(dataDir, [A]);
    const merged = mergeServerUrls(A, loadServerUrls(dataDir), [A, B, C]);
    expect(merged).toEqual([A, B, C]);
    saveServerUrls(dataDir, merged ?? []);
    expect(loadServerUrls(dataDir)).toEqual([A, B, C]);
    expect(statSync(nodeTlsPaths(dataDir).servers).mode & 0o777).toBe(0o644);
  });
});

describe("ServerRotation", () => {
  it("tries the addresses in turn and backs off only once every one has failed", () => {
    const rotation = new ServerRotation([A, B, C]);
    expect([rotation.take(), rotation.failed()]).toEqual([A, false]);
    expect([rotation.take(), rotation.failed()]).toEqual([B, false]);
    expect([rotation.take(), rotation.failed()]).toEqual([C, true]);
    expect(rotation.take()).toBe(A);
  });

  it("goes back to an address whose session closed, but on to the next after a silent one", () => {
    const rotation = new ServerRotation([A, B, C]);
    rotation.take();
    rotation.failed();
    expect(rotation.take()).toBe(B);
    rotation.worked();
    rotation.ended(B, false);
    expect(rotation.take()).toBe(B);
    rotation.ended(B, true);
    expect(rotation.take()).toBe(C);
    // The failure before the sessions that worked no longer counts toward a round.
    expect([rotation.failed(), rotation.failed(), rotation.failed()]).toEqual([false, false, true]);
  });

  it("after learning, tries the address after the current one next", () => {
    const rotation = new ServerRotation([A]);
    expect(rotation.take()).toBe(A);
    expect(rotation.learn(A, [A, B, C])).toEqual([A, B, C]);
    expect(rotation.known).toEqual([A, B, C]);
    expect(rotation.take()).toBe(B);
    expect(rotation.learn(B, [])).toBeNull();
  });

  it("refuses an empty list", () => {
    expect(() => new ServerRotation([])).toThrow(/at least one server address/);
  });
});
