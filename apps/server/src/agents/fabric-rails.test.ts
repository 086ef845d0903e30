import { describe, expect, it } from "vitest";
import { downRail, gradeRail, pairRails } from "./fabric-rails";

const port = (name: string, rateGbps = 400, state = "4: ACTIVE") => ({ name, rateGbps, state });

describe("fabric rails", () => {
  it("pairs A's i-th adapter with B's i-th, as NCCL numbers them", () => {
    const pairs = pairRails([port("mlx5_0"), port("mlx5_1")], [port("mlx5_4"), port("mlx5_5")]);
    expect(pairs.map((p) => [p.rail, p.client.name, p.server.name])).toEqual([
      [0, "mlx5_0", "mlx5_4"],
      [1, "mlx5_1", "mlx5_5"],
    ]);
    expect(() => pairRails([port("mlx5_0")], [])).toThrow("adapter counts differ: 1 and 0");
  });

  it("grades against the slower port: ok from 90 %, slow below", () => {
    const pair = { rail: 0, client: port("mlx5_0", 400), server: port("mlx5_0", 200) };
    expect(gradeRail(pair, { averageGbps: 180, peakGbps: 190 })).toMatchObject({
      linkGbps: 200,
      ratio: 0.9,
      status: "ok",
      fix: "",
    });
    const slow = gradeRail(pair, { averageGbps: 179.9, peakGbps: 190 });
    expect(slow.status).toBe("slow");
    expect(slow.fix).toMatch(/^below 90 %: check the cable/);
    expect(
      gradeRail({ ...pair, server: port("mlx5_0", 0) }, { averageGbps: 10, peakGbps: 10 }),
    ).toMatchObject({
      status: "slow",
      ratio: null,
      summary: "10.0 Gb/s average; the link's rate is unknown",
    });
  });

  it("does not run a rail whose port is down", () => {
    const pair = { rail: 2, client: port("mlx5_2"), server: port("mlx5_2", 400, "1: DOWN") };
    expect(downRail(pair)).toMatchObject({
      status: "failed",
      summary: "not run: mlx5_2 is 1: DOWN",
    });
    expect(downRail({ ...pair, server: port("mlx5_2") })).toBeNull();
  });
});
