import { ReplicaPhase } from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import { createDemandReader, readCardDemands, type FetchText } from "./engine-demand";

const METRICS = `# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{engine="0",model_name="m"} 3
vllm:num_requests_waiting{engine="0",model_name="m"} 1
vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.25
`;

describe("readCardDemands", () => {
  it("spreads each ready replica's load over its cards and skips the rest", async () => {
    const asked: string[] = [];
    const fetch: FetchText = async (url) => {
      asked.push(url);
      if (url.includes(":9001")) return METRICS;
      throw new Error("connection refused");
    };
    const demands = await readCardDemands(
      [
        {
          replicaId: "a",
          phase: ReplicaPhase.READY,
          host: "0.0.0.0",
          port: 9001,
          gpuIndexes: [2, 3],
        },
        {
          replicaId: "b",
          phase: ReplicaPhase.READY,
          host: "127.0.0.1",
          port: 9002,
          gpuIndexes: [5],
        },
        {
          replicaId: "c",
          phase: ReplicaPhase.STARTING,
          host: "127.0.0.1",
          port: 9003,
          gpuIndexes: [6],
        },
        {
          replicaId: "d",
          phase: ReplicaPhase.READY,
          host: "127.0.0.1",
          port: 9004,
          gpuIndexes: [],
        },
      ],
      fetch,
    );
    expect(asked.sort()).toEqual([
      "http://127.0.0.1:9001/metrics",
      "http://127.0.0.1:9002/metrics",
    ]);
    const busy = { runningRequests: 3, waitingRequests: 1, kvCacheUsageRatio: 0.25 };
    expect(demands.get(2)).toEqual(busy);
    expect(demands.get(3)).toEqual(busy);
    // A replica whose scrape failed still counts as placed, with no load.
    expect(demands.get(5)).toEqual({
      runningRequests: 0,
      waitingRequests: 0,
      kvCacheUsageRatio: 0,
    });
    expect(demands.has(6)).toBe(false);
  });
});

describe("createDemandReader", () => {
  it("answers the last completed scrape at once and never runs two scrapes together", async () => {
    let release: (text: string) => void = () => undefined;
    let scrapes = 0;
    const fetch: FetchText = () => {
      scrapes += 1;
      return new Promise((resolve) => (release = resolve));
    };
    const read = createDemandReader(
      () => [
        {
          replicaId: "a",
          phase: ReplicaPhase.READY,
          host: "127.0.0.1",
          port: 9001,
          gpuIndexes: [1],
        },
      ],
      fetch,
    );
    expect((await read()).size).toBe(0);
    expect((await read()).size).toBe(0);
    expect(scrapes).toBe(1);
    release(METRICS);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await read()).get(1)?.runningRequests).toBe(3);
    expect(scrapes).toBe(2);
  });
});
