// Replicas, status, logs and reclaim: defaults, limits and roles.
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { fakeContext } from "../../test/fake-context";

async function caught(work: Promise<unknown>): Promise<TRPCError> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

describe("replicas, status, logs and reclaim routers", () => {
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

  it("answers status to any signed-in user", async () => {
    const status = await appRouter.createCaller(fakeContext("viewer")).status.get();
    expect(status.modelsTotal).toBe(0);
    expect((await caught(appRouter.createCaller(fakeContext(null)).status.get())).code).toBe(
      "UNAUTHORIZED",
    );
  });

  it("reads 200 lines of the agent log by default and refuses more than 2000", async () => {
    const ctx = fakeContext("viewer");
    const caller = appRouter.createCaller(ctx);
    await caller.logs.get({ node: "sim-h100-a" });
    await caller.logs.get({ node: "sim-h100-a", source: "r-1", lines: 2000 });
    expect(ctx.services.logs.get.mock.calls).toEqual([
      ["sim-h100-a", "agent", 200],
      ["sim-h100-a", "r-1", 2000],
    ]);
    const tooMany = await caught(caller.logs.get({ node: "sim-h100-a", lines: 2001 }));
    expect(tooMany.code).toBe("BAD_REQUEST");
    expect(tooMany.message).toMatch(/lines must be at most 2000/);
    const noNode = await caught(caller.logs.get({ node: "" }));
    expect(noNode.message).toMatch(/node is required/);
  });

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
