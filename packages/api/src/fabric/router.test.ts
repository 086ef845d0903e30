import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";

describe("fabric router", () => {
  it("asks the service for the two nodes, 5 s by default, and refuses bad input by name", async () => {
    const ctx = fakeContext("admin");
    const caller = appRouter.createCaller(ctx);
    const view = await caller.fabric.test({ clientNode: " gpu-1 ", serverNode: "gpu-2" });
    expect(view).toMatchObject({ clientNode: "gpu-1", serverNode: "gpu-2", seconds: 5 });
    expect(ctx.services.fabric.test.mock.calls[0]?.[0]).toEqual({
      clientNode: "gpu-1",
      serverNode: "gpu-2",
      seconds: 5,
    });
    const noServer = await caught(caller.fabric.test({ clientNode: "gpu-1", serverNode: "" }));
    expect(noServer.message).toMatch(/node B \(the server\) is required/);
    const tooLong = await caught(
      caller.fabric.test({ clientNode: "gpu-1", serverNode: "gpu-2", seconds: 600 }),
    );
    expect(tooLong.message).toMatch(/seconds must be at most 60/);
  });
});
