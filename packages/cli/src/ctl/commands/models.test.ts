import { describe, expect, it } from "vitest";
import type { CtlValues } from "../args";
import { parseCtlArgs } from "../program";
import { ownerInput } from "./models";

function parsed(argv: string[]): { args: string[]; values: CtlValues } {
  const result = parseCtlArgs(["model", "owner", ...argv]);
  if (typeof result === "number") throw new Error(`model owner ${argv.join(" ")} was refused`);
  return { args: result.args.slice(1), values: result.values };
}

describe("ctl model owner", () => {
  it("sends the model and its owner, or null for --clear", () => {
    const set = parsed(["chat", "team:ml"]);
    expect(ownerInput(set.args, set.values)).toEqual({ model: "chat", owner: "team:ml" });
    const clear = parsed(["chat", "--clear"]);
    expect(ownerInput(clear.args, clear.values)).toEqual({ model: "chat", owner: null });
  });

  it("refuses no owner, both an owner and --clear, and no model, saying what to give", () => {
    const none = parsed(["chat"]);
    expect(() => ownerInput(none.args, none.values)).toThrow(
      /give the owner \(org:NAME, team:NAME or project:NAME\) or --clear/,
    );
    const both = parsed(["chat", "team:ml", "--clear"]);
    expect(() => ownerInput(both.args, both.values)).toThrow(/an owner or --clear, not both/);
    const nothing = parsed([]);
    expect(() => ownerInput(nothing.args, nothing.values)).toThrow(/MODEL/);
  });
});
