import { describe, expect, it } from "vitest";
import { createNetworkRateSampler, parseNetDev } from "./network";

// The layout of /proc/net/dev as Linux 6.1 prints it (captured on a Debian 12 machine).
function netDev(eth0: [number, number], lo: [number, number] = [648_773_343, 648_773_343]) {
  return [
    "Inter-|   Receive                                                |  Transmit",
    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed",
    `    lo: ${lo[0]}  698945    0    0    0     0          0         0 ${lo[1]}  698945    0    0    0     0       0          0`,
    "  ifb0:       0       0    0    0    0     0          0         0        0       0    0    0    0     0       0          0",
    `  eth0: ${eth0[0]}   78984    0    0    0     0          0         0  ${eth0[1]}   60582    0    0    0     0       0          0`,
    "",
  ].join("\n");
}

describe("parseNetDev", () => {
  it("sums bytes received and sent over every interface but loopback", () => {
    expect(parseNetDev(netDev([1_527_620_336, 4_939_127]))).toEqual({
      receiveBytes: 1_527_620_336,
      transmitBytes: 4_939_127,
    });
  });

  it("skips a line it cannot read instead of counting it", () => {
    const text = `${netDev([100, 200])}  bad0: 12 x\n`;
    expect(parseNetDev(text)).toEqual({ receiveBytes: 100, transmitBytes: 200 });
  });
});

describe("createNetworkRateSampler", () => {
  it("has no rate on the first sample, then bytes a second since the previous one", async () => {
    let nowMs = 10_000;
    let totals: [number, number] = [1_000, 500];
    const sample = createNetworkRateSampler(
      () => nowMs,
      async () => netDev(totals, [9e9, 9e9]),
    );
    expect(await sample()).toEqual({});
    nowMs += 2_000;
    totals = [1_000 + 4_000_000, 500 + 1_000];
    expect(await sample()).toEqual({
      networkReceiveBytesPerSecond: 2_000_000,
      networkTransmitBytesPerSecond: 500,
    });
  });

  it("reports nothing where the file is missing and after a counter went backwards", async () => {
    let nowMs = 0;
    let text: string | undefined = netDev([5_000, 5_000]);
    const sample = createNetworkRateSampler(
      () => nowMs,
      async () => text ?? Promise.reject(new Error("ENOENT: no /proc/net/dev")),
    );
    await sample();
    nowMs += 1_000;
    text = netDev([10, 10]);
    expect(await sample()).toEqual({});
    nowMs += 1_000;
    text = undefined;
    expect(await sample()).toEqual({});
    nowMs += 1_000;
    text = netDev([20, 30]);
    expect(await sample()).toEqual({});
  });
});
