import { describe, expect, it } from "vitest";
import { doctorText } from "./doctor-view";

describe("doctorText", () => {
  it("aligns the checks, counts them and lists what to do for those that did not pass", () => {
    const text = doctorText("node gpu-1", [
      {
        id: "gpu.driver",
        status: "warn",
        summary: "no GPUs: nvidia-smi not found",
        fix: "install the driver",
      },
      { id: "disk.cache", status: "pass", summary: "500 GiB free", fix: "" },
      { id: "clock.skew", status: "fail", summary: "clock 90.0 s ahead", fix: "run chrony" },
    ]);
    expect(text).toBe(
      [
        "node gpu-1: 1 fail, 1 warn, 1 pass",
        "STATUS  CHECK       FOUND",
        "WARN    gpu.driver  no GPUs: nvidia-smi not found",
        "PASS    disk.cache  500 GiB free",
        "FAIL    clock.skew  clock 90.0 s ahead",
        "",
        "what to do:",
        "  gpu.driver: install the driver",
        "  clock.skew: run chrony",
        "",
      ].join("\n"),
    );
  });
});
