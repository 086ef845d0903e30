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

  it("gives an engine's key for ctl bench to admins only, naming who asked", async () => {
    const ctx = fakeContext("admin");
    const access = await appRouter.createCaller(ctx).replicas.benchAccess({ model: "chat" });
    expect(access.key).toBe("k");
    expect(ctx.services.replicas.benchAccess.mock.calls[0]?.[1]).toEqual({
      username: "admin-user",
    });
    for (const role of ["operator", "viewer"] as const) {
      const refused = await caught(
        appRouter.createCaller(fakeContext(role)).replicas.benchAccess({ model: "chat" }),
      );
      expect(refused.code).toBe("FORBIDDEN");
    }
    const empty = await caught(appRouter.createCaller(ctx).replicas.benchAccess({ model: " " }));
    expect(empty.message).toMatch(/model is empty/);
  });
});
