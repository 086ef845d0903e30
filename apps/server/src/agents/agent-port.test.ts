import { describe, expect, it } from "vitest";
import { reusedFor } from "./agent-port";

describe("reusedFor (the RegisterAck's agent addresses)", () => {
  it("reads once per freshness period, then again once the answer is that old", () => {
    let now = 0;
    let reads = 0;
    const read = reusedFor(
      1_000,
      () => now,
      () => [`wss://cp:${++reads}`],
    );
    expect(read()).toEqual(["wss://cp:1"]);
    now = 999;
    expect(read()).toEqual(["wss://cp:1"]);
    now = 1_000;
    expect(read()).toEqual(["wss://cp:2"]);
    expect(reads).toBe(2);
  });
});
