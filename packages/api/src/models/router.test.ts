// The models router: who may call what, and how a service's refusal reaches the caller.
import { describe, expect, it } from "vitest";
import { ServiceError } from "../context";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext, modelView } from "../../test/fake-context";

const definition = {
  name: "chat",
  source: "file:///m",
  profiles: [{ name: "cpu", engine: "llamacpp" }],
};

describe("models router", () => {
  it("refuses a caller without a session on reads and writes", async () => {
    const caller = appRouter.createCaller(fakeContext(null));
    expect((await caught(caller.models.list())).code).toBe("UNAUTHORIZED");
    expect((await caught(caller.models.add({ definition }))).code).toBe("UNAUTHORIZED");
  });

  it("lets a viewer read but not change the catalog, and says which role is needed", async () => {
    const ctx = fakeContext("viewer");
    const caller = appRouter.createCaller(ctx);
    expect(await caller.models.list()).toHaveLength(1);
    expect(await caller.models.explainPlacement({ name: "chat" })).toMatchObject({
      summary: "placed",
    });
    for (const write of [
      caller.models.add({ preset: "sim-chat" }),
      caller.models.remove({ name: "chat" }),
      caller.models.retry({ name: "chat" }),
      caller.models.setFallbacks({ name: "chat", fallbacks: [] }),
      caller.models.setOwner({ model: "chat", owner: "team:ml" }),
    ]) {
      const error = await caught(write);
      expect(error.code).toBe("FORBIDDEN");
      expect(error.message).toMatch(
        /"viewer-user" has the viewer role.*needs an admin or operator/,
      );
    }
    expect(ctx.services.models.add).not.toHaveBeenCalled();
    expect(ctx.services.models.remove).not.toHaveBeenCalled();
    expect(ctx.services.models.setOwner).not.toHaveBeenCalled();
  });

  it("sets or clears a model's owner for an operator, and refuses an empty owner before the service", async () => {
    const ctx = fakeContext("operator");
    const caller = appRouter.createCaller(ctx);
    await caller.models.setOwner({ model: "chat", owner: "team:ml" });
    await caller.models.setOwner({ model: "chat", owner: null });
    expect(ctx.services.models.setOwner.mock.calls).toEqual([
      ["chat", "team:ml", { username: "operator-user" }],
      ["chat", null, { username: "operator-user" }],
    ]);
    const empty = await caught(caller.models.setOwner({ model: "chat", owner: "" }));
    expect(empty.code).toBe("BAD_REQUEST");
    expect(empty.message).toMatch(/owner is required; give org:NAME/);
    expect(ctx.services.models.setOwner).toHaveBeenCalledTimes(2);
  });

  it("passes the operator as the actor to one service call", async () => {
    const ctx = fakeContext("operator");
    const caller = appRouter.createCaller(ctx);
    ctx.services.models.add.mockResolvedValueOnce(modelView({ name: "sim-chat", revision: 3 }));
    expect(await caller.models.add({ preset: "sim-chat" })).toMatchObject({
      name: "sim-chat",
      revision: 3,
    });
    expect(ctx.services.models.add).toHaveBeenCalledWith(
      { preset: "sim-chat" },
      { username: "operator-user" },
    );
    expect(await caller.models.remove({ name: "chat" })).toEqual({ ok: true });
    expect(ctx.services.models.remove).toHaveBeenCalledWith("chat", { username: "operator-user" });
    await caller.models.setFallbacks({ name: "chat", fallbacks: ["spare"] });
    expect(ctx.services.models.setFallbacks).toHaveBeenCalledWith("chat", ["spare"], {
      username: "operator-user",
    });
  });

  it.each([
    ["invalid", "BAD_REQUEST"],
    ["not_found", "NOT_FOUND"],
    ["conflict", "CONFLICT"],
    ["unavailable", "PRECONDITION_FAILED"],
  ] as const)(
    "maps ServiceError %s to %s with its sentence and every detail line",
    async (kind, code) => {
      const ctx = fakeContext("admin");
      const details = ["source: pickle weights", "profiles[0].gpu: engine vllm needs a GPU"];
      ctx.services.models.add.mockRejectedValueOnce(
        new ServiceError(kind, 'model "chat" was refused: 2 problems', {
          code: "model.refused",
          params: { name: "chat" },
          details,
        }),
      );
      const error = await caught(appRouter.createCaller(ctx).models.add({ definition }));
      expect(error.code).toBe(code);
      expect(error.message).toBe('model "chat" was refused: 2 problems');
      expect(error.cause).toBeInstanceOf(ServiceError);
      expect((error.cause as ServiceError).details).toEqual(details);
    },
  );

  it("answers NOT_FOUND for an unknown model and names it", async () => {
    const ctx = fakeContext("viewer");
    ctx.services.models.get.mockRejectedValueOnce(
      new ServiceError("not_found", 'model "ghost" is not in the catalog; see `llmgw ctl models`', {
        code: "model.not_found",
        params: { name: "ghost" },
      }),
    );
    const error = await caught(appRouter.createCaller(ctx).models.get({ name: "ghost" }));
    expect(error.code).toBe("NOT_FOUND");
    expect(error.message).toMatch(/model "ghost" is not in the catalog/);
  });

  it("validates input before calling the service", async () => {
    const ctx = fakeContext("admin");
    const caller = appRouter.createCaller(ctx);
    const empty = await caught(caller.models.retry({ name: "" }));
    expect(empty.code).toBe("BAD_REQUEST");
    expect(empty.message).toMatch(/model name is required/);
    const noPreset = await caught(caller.models.add({ preset: "" }));
    expect(noPreset.code).toBe("BAD_REQUEST");
    expect(ctx.services.models.retry).not.toHaveBeenCalled();
    expect(ctx.services.models.add).not.toHaveBeenCalled();
  });
});

describe("models.setKey", () => {
  it("hands the trimmed key (or null, to clear) to the service with the operator as the actor", async () => {
    const ctx = fakeContext("operator");
    const caller = appRouter.createCaller(ctx);
    ctx.services.models.setKey.mockResolvedValue(modelView({ externalKey: "sealed" }));
    expect(await caller.models.setKey({ name: "gpt-ext", key: "  sk-abc\n" })).toMatchObject({
      externalKey: "sealed",
    });
    await caller.models.setKey({ name: "gpt-ext", key: null });
    expect(ctx.services.models.setKey.mock.calls).toEqual([
      ["gpt-ext", "sk-abc", expect.objectContaining({ username: "operator-user" })],
      ["gpt-ext", null, expect.objectContaining({ username: "operator-user" })],
    ]);
  });

  it("refuses an empty key without calling the service, and never repeats a key in a refusal", async () => {
    const ctx = fakeContext("operator");
    const caller = appRouter.createCaller(ctx);
    const empty = await caught(caller.models.setKey({ name: "gpt-ext", key: "  " }));
    expect(empty.code).toBe("BAD_REQUEST");
    expect(empty.message).toMatch(/the key is empty/);
    const long = await caught(caller.models.setKey({ name: "gpt-ext", key: "k".repeat(5_000) }));
    expect(long.message).not.toContain("kkkkkkkk");
    expect(ctx.services.models.setKey).not.toHaveBeenCalled();
  });
});
