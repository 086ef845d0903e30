import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";
import { EXPLORE_CONFIGS_MAX } from "./schemas";

describe("explore router", () => {
  it("runs for any signed-in user, passing the configs given", async () => {
    const ctx = fakeContext("viewer");
    const configs = [{ name: "mine", json: '{"hidden_size": 8}' }];
    expect(await appRouter.createCaller(ctx).explore.run({ configs })).toEqual({ models: [] });
    expect(ctx.services.explore.run).toHaveBeenCalledWith(configs);
    await appRouter.createCaller(ctx).explore.run({});
    expect(ctx.services.explore.run).toHaveBeenLastCalledWith([]);
  });

  it("refuses an anonymous caller", async () => {
    const error = await caught(appRouter.createCaller(fakeContext(null)).explore.run({}));
    expect(error.code).toBe("UNAUTHORIZED");
  });

  it("refuses a flood of configs and a config without a name, before the service", async () => {
    const ctx = fakeContext("viewer");
    const many = Array.from({ length: EXPLORE_CONFIGS_MAX + 1 }, (_, i) => ({
      name: `c${i}`,
      json: "{}",
    }));
    expect((await caught(appRouter.createCaller(ctx).explore.run({ configs: many }))).code).toBe(
      "BAD_REQUEST",
    );
    const unnamed = await caught(
      appRouter.createCaller(ctx).explore.run({ configs: [{ name: " ", json: "{}" }] }),
    );
    expect(unnamed.message).toMatch(/config name is required/);
    expect(ctx.services.explore.run).not.toHaveBeenCalled();
  });
});
