import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { GatewayTallies, SECONDS_BUCKETS, TalliedHistogram } from "./gateway-tallies";

const NAME = "llmgw_test_seconds";

/** The exposition lines of one family, as a registry writes them. */
async function lines(registry: Registry): Promise<string[]> {
  return (await registry.metrics()).split("\n").filter((line) => line.length > 0);
}

describe("tallied histogram", () => {
  it("writes the same series as prom-client's own Histogram given the same observations", async () => {
    const own = new Registry();
    const reference = new Histogram({
      ...{ name: NAME, help: "h", labelNames: ["model"], buckets: [...SECONDS_BUCKETS] },
      registers: [own],
    });
    const tallied = new Registry();
    const tallies = new GatewayTallies();
    new TalliedHistogram({ name: NAME, help: "h", registry: tallied }, (t) => t.latency, tallies);
    // Bounds themselves, values between them, past the last bound, zero; three models.
    const seconds = [0, 0.005, 0.0051, 0.01, 0.3, 1, 7.5, 120, 121, 3600, 0.02, 0.02];
    for (const [at, value] of seconds.entries()) {
      const model = ["a", "b", 'c "quoted"'][at % 3] ?? "a";
      reference.observe({ model }, value);
      tallies.of(model).latency.add(value);
    }
    expect(await lines(tallied)).toEqual(await lines(own));
    expect((await tallied.getMetricsAsJSON())[0]?.values).toHaveLength(
      3 * (SECONDS_BUCKETS.length + 3),
    );
  });

  it("writes no series for a model that has observed nothing in it", async () => {
    const registry = new Registry();
    const tallies = new GatewayTallies();
    new TalliedHistogram({ name: NAME, help: "h", registry }, (t) => t.firstByte, tallies);
    tallies.of("a").latency.add(0.1);
    expect((await registry.metrics()).includes(`${NAME}_count`)).toBe(false);
  });
});
