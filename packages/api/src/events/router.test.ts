import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { fakeContext } from "../../test/fake-context";

describe("events router", () => {
  it("passes filters and paging through, with a default page size", async () => {
    const ctx = fakeContext("viewer");
    await appRouter.createCaller(ctx).events.list({
      kinds: ["key.created", "replica.started"],
      severities: ["error"],
      subjectType: "model",
      subjectId: "sim-chat",
      cursor: 40,
    });
    expect(ctx.services.events.list).toHaveBeenCalledWith({
      kinds: ["key.created", "replica.started"],
      severities: ["error"],
      subjectType: "model",
      subjectId: "sim-chat",
      cursor: 40,
      limit: 50,
    });
  });

  it("refuses an unknown kind and a page that is too large, naming the field", async () => {
    const caller = appRouter.createCaller(fakeContext("admin"));
    await expect(caller.events.list({ kinds: ["node.exploded" as "node.lost"] })).rejects.toThrow(
      /"kinds",\s*0/,
    );
    await expect(caller.events.list({ limit: 5000 })).rejects.toThrow(/limit must be at most 500/);
  });

  it("lets a viewer see what needs attention but only an operator acknowledge it", async () => {
    const viewer = appRouter.createCaller(fakeContext("viewer"));
    expect(await viewer.events.attention()).toEqual({ count: 0, newestId: null });
    await expect(viewer.events.acknowledge({ upToId: 3 })).rejects.toThrow(/viewer role/);
    const ctx = fakeContext("operator");
    await appRouter.createCaller(ctx).events.acknowledge({ upToId: 3 });
    expect(ctx.services.events.acknowledge).toHaveBeenCalledWith(3, { username: "operator-user" });
  });
});
