import { describe, expect, it } from "vitest";
import { commaList, keyInput } from "./forms";

describe("console forms", () => {
  it("splits comma lists and drops empty entries", () => {
    expect(commaList(" a, b ,,c ")).toEqual(["a", "b", "c"]);
    expect(commaList("  ")).toEqual([]);
  });

  it("turns the key form into the create input, empty limits meaning none", () => {
    expect(
      keyInput({
        owner: " team:ml ",
        models: "qwen*, llama",
        rpm: "600",
        tpm: "",
        concurrent: " 8 ",
        expiresDays: 30,
      }),
    ).toEqual({
      owner: "team:ml",
      models: ["qwen*", "llama"],
      requestsPerMinute: 600,
      tokensPerMinute: undefined,
      concurrentMax: 8,
      expiresInSeconds: 30 * 86_400,
    });
    expect(
      keyInput({ owner: "user:ada", models: "*", rpm: "", tpm: "", concurrent: "", expiresDays: 0 })
        .expiresInSeconds,
    ).toBeUndefined();
  });
});
