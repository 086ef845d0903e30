import { describe, expect, it } from "vitest";
import type { CtlValues } from "../args";
import { parseCtlArgs } from "../program";
import { createKeyInput } from "./keys";

function values(argv: string[]): CtlValues {
  const result = parseCtlArgs(["keys", "create", ...argv]);
  if (typeof result === "number") throw new Error(`keys create ${argv.join(" ")} was refused`);
  return result.values;
}

describe("ctl keys create", () => {
  it("sends --no-store and --residency local, leaving both out when not given", () => {
    expect(
      createKeyInput(values(["--owner", "team:legal", "--models", "qwen*, llama", "--no-store"])),
    ).toMatchObject({ owner: "team:legal", models: ["qwen*", "llama"], noStore: true });
    const plain = createKeyInput(values(["--owner", "team:ml", "--models", "*"]));
    expect(plain.noStore).toBeUndefined();
    expect(plain.residency).toBeUndefined();
    expect(
      createKeyInput(values(["--owner", "team:eu", "--models", "*", "--residency", "local"]))
        .residency,
    ).toBe("local");
  });

  it("names a bad --residency and a missing --owner", () => {
    expect(() =>
      createKeyInput(values(["--owner", "team:eu", "--models", "*", "--residency", "eu"])),
    ).toThrow(/--residency eu: give local/);
    expect(() => createKeyInput(values(["--models", "*"]))).toThrow(/--owner is missing/);
  });
});
