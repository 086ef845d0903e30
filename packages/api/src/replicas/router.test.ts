import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";

describe("replicas router", () => {
  it("lists replicas with no filter or with model and node filters", async () => {
    const ctx = fakeContext("viewer");
    const caller = appRouter.createCaller(ctx);
    await caller.replicas.list();
    await caller.replicas.list({ model: "chat", node: "sim-h100-a" });
    expect(ctx.services.replicas.list.mock.calls).toEqual([
      [{}],
      [{ model: "chat", node: "sim-h100-a" }],
    ]);
    expect((await caught(appRouter.createCaller(fakeContext(null)).replicas.list())).code).toBe(
      "UNAUTHORIZED",
    );
  });
});
