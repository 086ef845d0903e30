import { create } from "@bufbuild/protobuf";
import { StartReplicaSchema } from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import { parseLeaderAddress, readyMessage, shardLaunch } from "./shard-launch";

const spec = (nodeRank: number, leaderAddress = "", nodeCount = 2) =>
  create(StartReplicaSchema, { replicaId: "big", nodeRank, nodeCount, leaderAddress });

describe("shardLaunch", () => {
  it("leaves a replica on one node alone", async () => {
    expect(await shardLaunch(spec(0, "", 1), "10.0.0.1", () => Promise.resolve(1))).toBeUndefined();
  });

  it("gives the leader a rendezvous port of its own and reports where to join it", async () => {
    const shard = await shardLaunch(spec(0), "10.0.0.1", () => Promise.resolve(29_501));
    expect(shard).toEqual({
      multiNode: { nodeRank: 0, nodeCount: 2, leaderHost: "10.0.0.1", leaderPort: 29_501 },
      leaderAddress: "10.0.0.1:29501",
      rendezvousPort: 29_501,
    });
    const v6 = await shardLaunch(spec(0), "fd00::1", () => Promise.resolve(7));
    expect(v6?.leaderAddress).toBe("[fd00::1]:7");
  });

  it("joins a worker to the leader's address", async () => {
    const shard = await shardLaunch(spec(1, "10.0.0.1:29501"), "10.0.0.2", () =>
      Promise.reject(new Error("a worker picks no port")),
    );
    expect(shard?.multiNode).toEqual({
      nodeRank: 1,
      nodeCount: 2,
      leaderHost: "10.0.0.1",
      leaderPort: 29_501,
    });
    expect(readyMessage(spec(1, "10.0.0.1:29501"))).toMatch(
      /worker shard rank 1 of 2 .*serves no API/,
    );
  });

  it("refuses a worker with no leader address, a rank past the count, and an address that is not host:port", async () => {
    const port = () => Promise.resolve(1);
    await expect(shardLaunch(spec(1), "h", port)).rejects.toThrow(/got no leader address/);
    await expect(shardLaunch(spec(2, "h:1"), "h", port)).rejects.toThrow(
      /not below the node count/,
    );
    expect(() => parseLeaderAddress("h:1 --trust-remote-code")).toThrow(/is not host:port/);
    expect(() => parseLeaderAddress("h:70000")).toThrow(/is not host:port/);
    expect(parseLeaderAddress("[::1]:5")).toEqual({ host: "::1", port: 5 });
  });
});
