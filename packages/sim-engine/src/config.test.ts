import { describe, expect, it } from "vitest";
import { parseSimEngineArgs } from "./config";
import { parseFaults } from "./faults";

describe("parseSimEngineArgs", () => {
  it("has loopback defaults and takes the key from the environment only", () => {
    const config = parseSimEngineArgs([], { VLLM_API_KEY: "v", SIM_ENGINE_API_KEY: "s" });
    expect(config).toMatchObject({
      host: "127.0.0.1",
      port: 8000,
      model: "sim-model",
      apiKey: "s",
      maxModelLen: undefined,
    });
    expect(parseSimEngineArgs([], { VLLM_API_KEY: "v" }).apiKey).toBe("v");
    expect(parseSimEngineArgs([], { SIM_ENGINE_API_KEY: "" }).apiKey).toBeUndefined();
  });

  it("reads flags and repeated faults", () => {
    const config = parseSimEngineArgs(
      [
        "--port",
        "0",
        "--model",
        "m",
        "--tokens-per-second",
        "12.5",
        "--fault",
        "status-429:0.25",
        "--fault",
        "drop-stream:4",
      ],
      {},
    );
    expect(config).toMatchObject({ port: 0, model: "m", tokensPerSecond: 12.5 });
    expect(config.faults).toMatchObject({
      status429Rate: 0.25,
      dropStreamAfterChunks: 4,
      status5xxRate: 0,
    });
  });

  it("names the flag that is wrong, and refuses an --api-key flag", () => {
    expect(() => parseSimEngineArgs(["--port", "70000"], {})).toThrow(/--port must be 0-65535/);
    expect(() => parseSimEngineArgs(["--ttft-ms", "soon"], {})).toThrow(
      /--ttft-ms must be a number/,
    );
    expect(() => parseSimEngineArgs(["--api-key", "x"], {})).toThrow(/api-key/);
  });
});

describe("parseFaults", () => {
  it("reads each form", () => {
    expect(parseFaults(["never-ready", "crash-after:2.5", "status-5xx:1"])).toMatchObject({
      isNeverReady: true,
      crashAfterMs: 2500,
      status5xxRate: 1,
    });
  });

  it.each([
    ["status-5xx:1.5", /between 0 and 1/],
    ["status-429:", /not a number/],
    ["drop-stream:2.5", /whole number/],
    ["never-ready:1", /takes no value/],
    ["crash-after:-1", /negative/],
    ["boom", /unknown fault "boom"/],
  ])("refuses %s", (spec, message) => {
    expect(() => parseFaults([spec])).toThrow(message);
  });

  it("reads a shard of a replica spanning nodes and refuses one a real cluster would refuse", () => {
    const shard = ["--nnodes", "2", "--master-addr", "10.0.0.1", "--master-port", "29500"];
    const mp = ["--distributed-executor-backend", "mp"];
    expect(
      parseSimEngineArgs([...shard, ...mp, "--node-rank", "1", "--headless"], {}).multiNode,
    ).toEqual({
      nodeCount: 2,
      nodeRank: 1,
      masterAddr: "10.0.0.1",
      masterPort: 29500,
      pipelineParallel: 1,
    });
    expect(parseSimEngineArgs([], {}).multiNode).toBeUndefined();
    expect(() => parseSimEngineArgs([...shard, ...mp, "--node-rank", "1"], {})).toThrow(
      "--node-rank 1 needs --headless",
    );
    expect(() =>
      parseSimEngineArgs([...shard, ...mp, "--node-rank", "2", "--headless"], {}),
    ).toThrow("--node-rank 2 must be below --nnodes 2");
    expect(() => parseSimEngineArgs([...shard, "--node-rank", "0"], {})).toThrow(
      "needs --distributed-executor-backend mp",
    );
    expect(() =>
      parseSimEngineArgs(
        [...shard, "--node-rank", "0", "--distributed-executor-backend", "ray"],
        {},
      ),
    ).toThrow("Ray is not simulated");
  });
});
