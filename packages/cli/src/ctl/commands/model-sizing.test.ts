import { describe, expect, it } from "vitest";
import type { CtlValues } from "../args";
import { parseCtlArgs } from "../program";
import { contextInput, gpusInput, resourcesInput } from "./model-sizing";

function parsed(verb: string, argv: string[]): { args: string[]; values: CtlValues } {
  const result = parseCtlArgs(["model", verb, ...argv]);
  if (typeof result === "number") throw new Error(`model ${verb} ${argv.join(" ")} was refused`);
  return { args: result.args.slice(1), values: result.values };
}

describe("ctl model gpus|context|resources", () => {
  it("sends the cards, the profile and --in-place", () => {
    const { args, values } = parsed("gpus", ["chat", "4", "--profile", "h100", "--in-place"]);
    expect(gpusInput(args, values)).toEqual({
      name: "chat",
      gpus: 4,
      profile: "h100",
      inPlace: true,
    });
  });

  it("refuses a card count that is not a whole number, naming it", () => {
    const { args, values } = parsed("gpus", ["chat", "2.5"]);
    expect(() => gpusInput(args, values)).toThrow(/N \(cards\) is a whole number.*"2\.5"/);
  });

  it("sends the context and slots", () => {
    const { args, values } = parsed("context", ["chat", "32768", "--slots", "4"]);
    expect(contextInput(args, values)).toEqual({
      name: "chat",
      contextTokens: 32_768,
      slots: 4,
      inPlace: false,
    });
  });

  it("reads memory as the quota commands do, and wants both flags", () => {
    const { args, values } = parsed("resources", ["chat", "--cores", "2", "--memory", "1TiB"]);
    expect(resourcesInput(args, values)).toEqual({
      name: "chat",
      cpuCores: 2,
      memoryGb: 1024,
      inPlace: false,
    });
    const half = parsed("resources", ["chat", "--cores", "2"]);
    expect(() => resourcesInput(half.args, half.values)).toThrow(/both --cores and --memory/);
    const bad = parsed("resources", ["chat", "--cores", "2", "--memory", "lots"]);
    expect(() => resourcesInput(bad.args, bad.values)).toThrow(/--memory is a size/);
  });
});
