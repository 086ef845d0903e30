import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";

describe("logs router", () => {
  it("reads 200 lines of the agent log by default and refuses more than 2000", async () => {
    const ctx = fakeContext("viewer");
    const caller = appRouter.createCaller(ctx);
    await caller.logs.get({ node: "sim-h100-a" });
    await caller.logs.get({ node: "sim-h100-a", source: "r-1", lines: 2000 });
    expect(ctx.services.logs.get.mock.calls).toEqual([
      ["sim-h100-a", "agent", 200, { requestId: undefined, everySource: false }],
      ["sim-h100-a", "r-1", 2000, { requestId: undefined, everySource: false }],
    ]);
    const tooMany = await caught(caller.logs.get({ node: "sim-h100-a", lines: 2001 }));
    expect(tooMany.code).toBe("BAD_REQUEST");
    expect(tooMany.message).toMatch(/lines must be at most 2000/);
    const noNode = await caught(caller.logs.get({ node: "" }));
    expect(noNode.message).toMatch(/node is required/);
  });

  it("passes a request id and every source on, and refuses an id the gateway would never give", async () => {
    const ctx = fakeContext("viewer");
    const caller = appRouter.createCaller(ctx);
    await caller.logs.get({ node: "n", requestId: " req-1.a:b ", everySource: true });
    expect(ctx.services.logs.get.mock.calls).toEqual([
      ["n", "agent", 200, { requestId: "req-1.a:b", everySource: true }],
    ]);
    const forged = await caught(caller.logs.get({ node: "n", requestId: 'x" OR 1=1' }));
    expect(forged.code).toBe("BAD_REQUEST");
    expect(forged.message).toMatch(/requestId must be 1 to 128 letters/);
  });
});
