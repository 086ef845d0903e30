import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";

describe("reclaim router", () => {
  it("runs reclaim as a listing by default, collects only when asked, and keeps viewers out", async () => {
    const ctx = fakeContext("operator");
    const caller = appRouter.createCaller(ctx);
    expect(await caller.reclaim.run()).toEqual({ collect: false, nodes: [] });
    await caller.reclaim.run({ collect: true });
    expect(ctx.services.reclaim.run.mock.calls).toEqual([
      [false, { username: "operator-user" }],
      [true, { username: "operator-user" }],
    ]);
    const viewer = await caught(
      appRouter.createCaller(fakeContext("viewer")).reclaim.run({ collect: true }),
    );
    expect(viewer.code).toBe("FORBIDDEN");
  });
});
