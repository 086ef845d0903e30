import { describe, expect, it } from "vitest";
import { fabricText } from "./fabric-view";

describe("fabricText", () => {
  it("aligns the rails, counts them and lists what to do for those not ok", () => {
    const text = fabricText({
      clientNode: "gpu-1",
      serverNode: "gpu-2",
      seconds: 5,
      status: "failed",
      rails: [
        {
          rail: 0,
          clientAdapter: "mlx5_0",
          serverAdapter: "mlx5_0",
          linkGbps: 400,
          averageGbps: 385.25,
          peakGbps: 390,
          ratio: 0.963,
          status: "ok",
          summary: "385.3 Gb/s average, 96 % of the 400.0 Gb/s link",
          fix: "",
        },
        {
          rail: 1,
          clientAdapter: "mlx5_1",
          serverAdapter: "mlx5_1",
          linkGbps: 400,
          averageGbps: null,
          peakGbps: null,
          ratio: null,
          status: "failed",
          summary: "not run: mlx5_1 is 1: DOWN",
          fix: "bring the port up",
        },
      ],
    });
    expect(text).toBe(
      [
        "gpu-1 → gpu-2, 5 s per rail: 1 ok, 0 slow, 1 failed",
        "RAIL  STATUS  ADAPTERS         LINK Gb/s  AVG Gb/s  PEAK Gb/s  FOUND",
        "0     OK      mlx5_0 → mlx5_0  400        385.3     390.0      385.3 Gb/s average, 96 % of the 400.0 Gb/s link",
        "1     FAILED  mlx5_1 → mlx5_1  400        -         -          not run: mlx5_1 is 1: DOWN",
        "",
        "what to do:",
        "  rail 1: bring the port up",
        "",
      ].join("\n"),
    );
  });
});
