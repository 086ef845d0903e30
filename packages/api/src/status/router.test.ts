import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";

describe("status router", () => {
  it("answers status to any signed-in user", async () => {
    const status = await appRouter.createCaller(fakeContext("viewer")).status.get();
    expect(status.modelsTotal).toBe(0);
    expect((await caught(appRouter.createCaller(fakeContext(null)).status.get())).code).toBe(
      "UNAUTHORIZED",
    );
  });
});
