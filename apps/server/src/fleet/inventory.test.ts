import { create } from "@bufbuild/protobuf";
import type { Database } from "@llmgw/db";
import { RegisterSchema } from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import { createInventoryWriter } from "./inventory";

/** A store whose every write fails, as a full disk or a dropped connection would. */
const failingDb = {
  transaction: () => Promise.reject(new Error("disk full")),
  update: () => ({ set: () => ({ where: () => Promise.reject(new Error("connection lost")) }) }),
  execute: () => Promise.reject(new Error("connection reset")),
} as unknown as Database;

describe("createInventoryWriter", () => {
  it("logs a failed save with the node and the reason instead of throwing", async () => {
    const lines: string[] = [];
    const writer = createInventoryWriter(
      failingDb,
      { get: () => undefined },
      () => 0,
      (line) => lines.push(line),
      { changed: () => undefined },
    );
    await writer.registered(create(RegisterSchema, { nodeId: "n1" }));
    await writer.disconnected("n2");
    await writer.lastSeen([
      { nodeId: "n3", at: new Date(0) },
      { nodeId: "n4", at: new Date(0) },
    ]);
    expect(lines).toEqual([
      "could not save node n1: disk full",
      "could not save node n2: connection lost",
      "could not save the last-seen times of 2 nodes: connection reset",
    ]);
  });

  it("tells the node rows kept in memory after a registration or a disconnection, not a sweep", async () => {
    const told: string[] = [];
    let step = "";
    const writer = createInventoryWriter(
      failingDb,
      { get: () => undefined },
      () => 0,
      () => undefined,
      { changed: () => told.push(step) },
    );
    step = "registered";
    await writer.registered(create(RegisterSchema, { nodeId: "n1" }));
    step = "disconnected";
    await writer.disconnected("n2");
    step = "last seen";
    await writer.lastSeen([{ nodeId: "n3", at: new Date(0) }]);
    expect(told).toEqual(["registered", "disconnected"]);
  });
});
