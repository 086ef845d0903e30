import { describe, expect, it } from "vitest";
import { badKeyNumbers, commaList, keyInput, knownKeyOwners, type KeyFormState } from "./forms";

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
        staysLocal: false,
        noStore: true,
      }),
    ).toEqual({
      owner: "team:ml",
      models: ["qwen*", "llama"],
      requestsPerMinute: 600,
      tokensPerMinute: undefined,
      concurrentMax: 8,
      residency: undefined,
      noStore: true,
      expiresInSeconds: 30 * 86_400,
    });
    expect(
      keyInput({
        ...{ owner: "user:ada", models: "*", rpm: "", tpm: "", concurrent: "", expiresDays: 0 },
        ...{ staysLocal: true, noStore: false },
      }),
    ).toMatchObject({ residency: "local", noStore: undefined, expiresInSeconds: undefined });
  });

  it("names each limit box that holds something other than a whole number of at least 1", () => {
    const form: KeyFormState = {
      owner: "user:ada",
      models: "*",
      rpm: "60O",
      tpm: "1.5",
      concurrent: "0",
      expiresDays: 0,
      staysLocal: false,
      noStore: false,
    };
    expect(badKeyNumbers(form)).toEqual(["rpm", "tpm", "concurrent"]);
    expect(badKeyNumbers({ ...form, rpm: " 600 ", tpm: "", concurrent: "8" })).toEqual([]);
    expect(badKeyNumbers({ ...form, rpm: "-5", tpm: "", concurrent: "" })).toEqual(["rpm"]);
  });

  it("offers the person first, then the org tree's units and the keys' owners, each once", () => {
    expect(
      knownKeyOwners(
        "ada",
        [
          { kind: "team", name: "ml", parent: "org:acme" },
          { kind: "org", name: "acme", parent: null },
        ],
        [{ owner: "team:ml" }, { owner: "user:ada" }, { owner: "user:bob" }],
      ),
    ).toEqual(["user:ada", "org:acme", "team:ml", "user:bob"]);
    expect(knownKeyOwners(null, [], [])).toEqual([]);
  });
});
