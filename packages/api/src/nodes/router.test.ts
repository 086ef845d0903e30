// nodes.history and replicas.idle: who may read them, and an unknown node's answer.
import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";

describe("nodes.history and replicas.idle", () => {
  it("answers NOT_FOUND naming an unknown node, and refuses an empty id", async () => {
    const caller = appRouter.createCaller(fakeContext("viewer"));
    const missing = await caught(caller.nodes.history({ id: "nowhere" }));
    expect(missing.code).toBe("NOT_FOUND");
    expect(missing.message).toContain('"nowhere"');
    expect((await caught(caller.nodes.history({ id: "" }))).message).toContain(
      "node id is required",
    );
  });

  it("returns the service's samples to a signed-in user only", async () => {
    const ctx = fakeContext("viewer");
    const history = {
      nodeId: "n1",
      windowMs: 300_000,
      samples: [
        {
          atMs: 1,
          gpus: [{ index: 0, utilizationPercent: 12, memoryBytesUsed: 5, temperatureCelsius: 40 }],
        },
      ],
    };
    ctx.services.nodes.history.mockResolvedValueOnce(history);
    expect(await appRouter.createCaller(ctx).nodes.history({ id: "n1" })).toEqual(history);
    const signedOut = appRouter.createCaller(fakeContext(null));
    expect((await caught(signedOut.nodes.history({ id: "n1" }))).code).toBe("UNAUTHORIZED");
    expect((await caught(signedOut.replicas.idle())).code).toBe("UNAUTHORIZED");
    expect((await appRouter.createCaller(ctx).replicas.idle()).thresholdPercent).toBe(5);
  });
});

describe("nodes.label", () => {
  it("refuses a non-admin, and names a bad key or value before the service is called", async () => {
    const operator = appRouter.createCaller(fakeContext("operator"));
    const asOperator = await caught(
      operator.nodes.label({ id: "n1", set: { "llmgw.io/rack": "r1" }, remove: [] }),
    );
    expect(asOperator.code).toBe("FORBIDDEN");
    const ctx = fakeContext("admin");
    const admin = appRouter.createCaller(ctx);
    const badKey = await caught(
      admin.nodes.label({ id: "n1", set: { "llmgw.io/shelf": "s1" }, remove: [] }),
    );
    expect(badKey.code).toBe("BAD_REQUEST");
    expect(badKey.message).toContain("llmgw.io/shelf");
    const badValue = await caught(
      admin.nodes.label({ id: "n1", set: { "llmgw.io/rack": "r 12; drop" }, remove: [] }),
    );
    expect(badValue.message).toContain("r 12; drop");
    const badRemove = await caught(admin.nodes.label({ id: "n1", set: {}, remove: ["-x"] }));
    expect(badRemove.message).toContain("-x");
    expect(ctx.services.nodes.label).not.toHaveBeenCalled();
  });
});
