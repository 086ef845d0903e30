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
    error: { message: string; data: { code: string; httpStatus: number; details: string[] } };
  };
  return { status: res.status, error: body.error };
}

describe("error shape", () => {
  it("carries a refusal's detail lines with HTTP 400", async () => {
    const ctx = fakeContext("admin");
    ctx.services.models.add.mockRejectedValueOnce(
      new ServiceError("invalid", 'model "x" was refused: 2 problems', [
        "source: pickle",
        "replicas: min above max",
      ]),
    );
    const { status, error } = await post("models.add", { preset: "x" }, ctx);
    expect(status).toBe(400);
    expect(error.message).toBe('model "x" was refused: 2 problems');
    expect(error.data).toMatchObject({
      code: "BAD_REQUEST",
      details: ["source: pickle", "replicas: min above max"],
    });
  });

  it("answers 412 for an unavailable service and lists input problems as details", async () => {
    const ctx = fakeContext("admin");
    ctx.services.models.retry.mockRejectedValueOnce(
      new ServiceError("unavailable", "the reconciler is not running"),
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
});
