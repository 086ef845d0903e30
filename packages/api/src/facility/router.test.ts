// facility.*: who may hold and release, and a domain that is not one refused naming it.
import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";

describe("facility", () => {
  it("lets an admin hold with drain, and refuses an operator", async () => {
    const ctx = fakeContext("admin");
    const held = await appRouter
      .createCaller(ctx)
      .facility.hold({ domain: "rack=r12", drain: true });
    expect(held).toMatchObject({ domain: "rack=r12", isDraining: true });
    expect(ctx.services.facility.hold).toHaveBeenCalledWith("rack=r12", true, expect.anything());
    const operator = appRouter.createCaller(fakeContext("operator"));
    expect((await caught(operator.facility.hold({ domain: "rack=r12" }))).code).toBe("FORBIDDEN");
    expect((await caught(operator.nodes.cordon({ id: "n1", state: "draining" }))).code).toBe(
      "FORBIDDEN",
    );
  });

  it("names a domain that is not KIND=VALUE before the service sees it", async () => {
    const ctx = fakeContext("admin");
    const admin = appRouter.createCaller(ctx);
    const shelf = await caught(admin.facility.hold({ domain: "shelf=3" }));
    expect(shelf.code).toBe("BAD_REQUEST");
    expect(shelf.message).toContain("shelf=3");
    const empty = await caught(admin.facility.release({ domain: "rack=" }));
    expect(empty.message).toContain("no value");
    expect(ctx.services.facility.hold).not.toHaveBeenCalled();
    expect(ctx.services.facility.release).not.toHaveBeenCalled();
  });
});
