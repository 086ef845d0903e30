import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";

describe("upgrade router", () => {
  it("passes a checked version to the service, for admins only", async () => {
    const ctx = fakeContext("admin");
    const caller = appRouter.createCaller(ctx);
    expect(await caller.upgrade.node({ nodeId: "gpu-1", version: "1.4.0" })).toMatchObject({
      version: "1.4.0",
    });
    expect(ctx.services.upgrade.node.mock.calls).toEqual([
      ["gpu-1", "1.4.0", { username: "admin-user" }],
    ]);
    const badVersion = await caught(caller.upgrade.controlPlane({ version: "1.4.0;rm -rf /" }));
    expect(badVersion.code).toBe("BAD_REQUEST");
    expect(ctx.services.upgrade.controlPlane.mock.calls).toEqual([]);
    const operator = await caught(
      appRouter.createCaller(fakeContext("operator")).upgrade.controlPlane({ version: "1.4.0" }),
    );
    expect(operator.code).toBe("FORBIDDEN");
  });
});
