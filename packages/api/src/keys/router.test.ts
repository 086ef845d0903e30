import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { fakeContext } from "../../test/fake-context";

describe("keys router", () => {
  it("creates a key for an operator of the team and passes the limits through", async () => {
    const ctx = fakeContext("operator", undefined, [{ role: "operator", scope: "team:ml" }]);
    const created = await appRouter.createCaller(ctx).keys.create({
      owner: "team:ml",
      models: ["qwen*"],
      requestsPerMinute: 600,
      expiresInSeconds: 86_400,
    });
    expect(created.key).toBe("llmgw_fake");
    expect(ctx.services.keys.create).toHaveBeenCalledWith(
      { owner: "team:ml", models: ["qwen*"], requestsPerMinute: 600, expiresInSeconds: 86_400 },
      { username: "operator-user" },
    );
  });

  it("lets a viewer list the keys they may see but not create or revoke them, and refuses a malformed owner", async () => {
    // Keys are listed only to those who hold at least viewer where the key's owner sits.
    expect(await appRouter.createCaller(fakeContext("viewer")).keys.list()).toEqual([]);
    const viewer = appRouter.createCaller(
      fakeContext("viewer", undefined, [{ role: "viewer", scope: "team:ml" }]),
    );
    expect((await viewer.keys.list())[0]?.owner).toBe("team:ml");
    await expect(viewer.keys.create({ owner: "team:ml", models: ["*"] })).rejects.toThrow(
      /viewer role/,
    );
    await expect(viewer.keys.revoke({ id: "k1" })).rejects.toThrow(/viewer role/);
    await expect(
      appRouter.createCaller(fakeContext("admin")).keys.create({ owner: "ml", models: ["*"] }),
    ).rejects.toThrow(/owner must look like/);
    await expect(
      appRouter.createCaller(fakeContext("admin")).keys.create({ owner: "team:ml", models: [] }),
    ).rejects.toThrow(/at least one model/);
  });

  it("lets an operator revoke only the keys of owners they operate, looking up just that key", async () => {
    const stranger = fakeContext("operator", undefined, [{ role: "operator", scope: "team:cv" }]);
    await expect(appRouter.createCaller(stranger).keys.revoke({ id: "k1" })).rejects.toThrow(
      /not an operator of team:ml/,
    );
    expect(stranger.services.keys.revoke).not.toHaveBeenCalled();
    const owner = fakeContext("operator", undefined, [{ role: "operator", scope: "team:ml" }]);
    const revoked = await appRouter.createCaller(owner).keys.revoke({ id: "k1" });
    expect(revoked.state).toBe("revoked");
    expect(owner.services.keys.get).toHaveBeenCalledWith("k1");
    expect(owner.services.keys.list).not.toHaveBeenCalled();
  });
});
