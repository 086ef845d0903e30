import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";

describe("releases router", () => {
  it("lists and removes releases for admins, by a version that cannot name a path", async () => {
    const ctx = fakeContext("admin");
    const caller = appRouter.createCaller(ctx);
    expect(await caller.releases.list()).toEqual([]);
    expect(await caller.releases.remove({ version: "1.2.0" })).toEqual({ version: "1.2.0" });
    expect(ctx.services.releases.remove.mock.calls).toEqual([
      ["1.2.0", { username: "admin-user" }],
    ]);
    const traversal = await caught(caller.releases.remove({ version: "../../etc" }));
    expect(traversal.code).toBe("BAD_REQUEST");
    expect(ctx.services.releases.remove.mock.calls).toHaveLength(1);
  });

  it("keeps operators out", async () => {
    const refused = await caught(appRouter.createCaller(fakeContext("operator")).releases.list());
    expect(refused.code).toBe("FORBIDDEN");
  });
});
