// The error shape over HTTP: the status, the sentence, and each detail line a client shows.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { describe, expect, it } from "vitest";
import { ServiceError } from "./context";
import { appRouter } from "./root";
import { fakeContext } from "../test/fake-context";

async function post(path: string, input: unknown, ctx = fakeContext("admin")) {
  const res = await fetchRequestHandler({
    endpoint: "/api/trpc",
    router: appRouter,
    req: new Request(`http://test/api/trpc/${path}`, {
      method: "POST",
      body: JSON.stringify(input),
      headers: { "content-type": "application/json" },
    }),
    createContext: () => ctx,
  });
  const body = (await res.json()) as {
    error: {
      message: string;
      data: { code: string; httpStatus: number; details: string[]; refusal: unknown };
    };
  };
  return { status: res.status, error: body.error };
}

describe("error shape", () => {
  it("carries a refusal's detail lines with HTTP 400", async () => {
    const ctx = fakeContext("admin");
    ctx.services.models.add.mockRejectedValueOnce(
      new ServiceError("invalid", 'model "x" was refused: 2 problems', {
        code: "model.refused",
        params: { name: "x" },
        details: ["source: pickle", "replicas: min above max"],
      }),
    );
    const { status, error } = await post("models.add", { preset: "x" }, ctx);
    expect(status).toBe(400);
    expect(error.message).toBe('model "x" was refused: 2 problems');
    expect(error.data).toMatchObject({
      code: "BAD_REQUEST",
      details: ["source: pickle", "replicas: min above max"],
      refusal: { code: "model.refused", params: { name: "x" } },
    });
  });

  it("answers 412 for an unavailable service and lists input problems as details", async () => {
    const ctx = fakeContext("admin");
    ctx.services.models.retry.mockRejectedValueOnce(
      new ServiceError("unavailable", "the reconciler is not running", {
        code: "signin.ldap_not_set_up",
      }),
    );
    const unavailable = await post("models.retry", { name: "chat" }, ctx);
    expect(unavailable.status).toBe(412);
    expect(unavailable.error.data.details).toEqual([]);

    const invalid = await post(
      "models.setFallbacks",
      { name: "", fallbacks: Array.from({ length: 33 }, (_, i) => `m${i}`) },
      ctx,
    );
    expect(invalid.status).toBe(400);
    expect(invalid.error.data.details).toEqual([
      "name: model name is required",
      "fallbacks: at most 32 fallbacks",
    ]);
    expect(invalid.error.message).toBe(
      "name: model name is required; fallbacks: at most 32 fallbacks",
    );
  });

  it("gives role and session refusals a code and the names in their sentence", async () => {
    const viewer = await post("models.add", { preset: "x" }, fakeContext("viewer"));
    expect(viewer.status).toBe(403);
    expect(viewer.error.message).toMatch(/"viewer-user" has the viewer role/);
    expect(viewer.error.data.refusal).toEqual({
      code: "role.needs_operator",
      params: { username: "viewer-user", role: "viewer" },
    });
    const operator = await post("people.remove", { id: "x" }, fakeContext("operator"));
    expect(operator.error.data.refusal).toMatchObject({ code: "role.needs_admin" });
    const nobody = await post("models.add", { preset: "x" }, fakeContext(null));
    expect(nobody.status).toBe(401);
    expect(nobody.error.data.refusal).toEqual({ code: "auth.no_session", params: {} });
  });

  it("gives input problems no refusal code; their lines are the answer", async () => {
    const invalid = await post("models.setFallbacks", { name: "", fallbacks: [] });
    expect(invalid.status).toBe(400);
    expect(invalid.error.data.refusal).toBeNull();
  });
});
