import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";

describe("doctor router", () => {
  it("asks the service for the node named and refuses an empty name", async () => {
    const ctx = fakeContext("operator");
    const caller = appRouter.createCaller(ctx);
    const view = await caller.doctor.run({ node: " gpu-1 " });
    expect(view.node).toBe("gpu-1");
    expect(ctx.services.doctor.run.mock.calls).toEqual([["gpu-1"]]);
    const noNode = await caught(caller.doctor.run({ node: "" }));
    expect(noNode.message).toMatch(/node is required/);
  });
});
