// The quotas router: anyone signed in sees the quotas; only an admin changes how the fleet is
// shared, whatever an operator sends.
import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";

describe("quotas router", () => {
  it("refuses an operator who gives their own team the whole fleet, before the service", async () => {
    const ctx = fakeContext("operator");
    const caller = appRouter.createCaller(ctx);
    const grab = await caught(
      caller.quotas.set({ scope: "team:ml", guarantee: "gpus=H100-80G:10000", limit: null }),
    );
    expect(grab.code).toBe("FORBIDDEN");
    expect(grab.message).toMatch(/needs an admin/);
    const drop = await caught(caller.quotas.remove({ scope: "team:rivals" }));
    expect(drop.code).toBe("FORBIDDEN");
    expect(ctx.services.quotas.set).not.toHaveBeenCalled();
    expect(ctx.services.quotas.remove).not.toHaveBeenCalled();
    expect(await caller.quotas.list()).toEqual([]);
  });

  it("hands an admin's change to the service with the admin as the actor", async () => {
    const ctx = fakeContext("admin");
    const caller = appRouter.createCaller(ctx);
    await caller.quotas.set({ scope: " team:ml ", guarantee: "cores=64" });
    expect(ctx.services.quotas.set).toHaveBeenCalledWith(
      { scope: "team:ml", guarantee: "cores=64" },
      { username: "admin-user" },
    );
    expect(await caller.quotas.remove({ scope: "team:ml" })).toEqual({ scope: "team:ml" });
  });

  it("refuses an empty scope and a NUL in the amounts before the service", async () => {
    const ctx = fakeContext("admin");
    const caller = appRouter.createCaller(ctx);
    expect((await caught(caller.quotas.set({ scope: "", guarantee: "" }))).code).toBe(
      "BAD_REQUEST",
    );
    expect(
      (await caught(caller.quotas.set({ scope: "team:ml", guarantee: "cores=1\u0000" }))).code,
    ).toBe("BAD_REQUEST");
    expect(ctx.services.quotas.set).not.toHaveBeenCalled();
  });
});
