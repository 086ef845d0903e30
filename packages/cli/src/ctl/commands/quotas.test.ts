import type { ScopeQuotaView } from "@llmgw/api";
import { describe, expect, it } from "vitest";
import type { CtlValues } from "../args";
import { parseCtlArgs } from "../program";
import { quotasTable, setQuotaInput } from "./quotas";

function parsed(argv: string[]): { args: string[]; values: CtlValues } {
  const result = parseCtlArgs(["quota", ...argv]);
  if (typeof result === "number") throw new Error(`quota ${argv.join(" ")} was refused`);
  return { args: result.args.slice(1), values: result.values };
}

const line = (resource: string, held: number, guaranteed: number, limit: number | null) => ({
  resource,
  held,
  guaranteed,
  limit,
  borrowed: Math.max(0, held - guaranteed),
});

describe("ctl quota", () => {
  it("sends the scope with its guarantee and limit, an empty guarantee or no limit when left out", () => {
    const both = parsed([
      "set",
      "team:ml",
      "--guarantee",
      "gpus=H100-80G:16,cores=64,memory=512GiB",
      "--limit",
      "gpus=H100-80G:32",
    ]);
    expect(setQuotaInput(both.args, both.values)).toEqual({
      scope: "team:ml",
      guarantee: "gpus=H100-80G:16,cores=64,memory=512GiB",
      limit: "gpus=H100-80G:32",
    });
    const limitOnly = parsed(["set", "org:acme", "--limit", "cores=256"]);
    expect(setQuotaInput(limitOnly.args, limitOnly.values)).toEqual({
      scope: "org:acme",
      guarantee: "",
      limit: "cores=256",
    });
  });

  it("refuses a set without amounts or without a scope, saying what to give", () => {
    const bare = parsed(["set", "team:ml"]);
    expect(() => setQuotaInput(bare.args, bare.values)).toThrow(
      /give --guarantee, --limit or both/,
    );
    const noScope = parsed(["set", "--guarantee", "cores=1"]);
    expect(() => setQuotaInput(noScope.args, noScope.values)).toThrow(/SCOPE is missing/);
  });

  it("prints one row per scope and resource, marking a scope at its limit", () => {
    const views: ScopeQuotaView[] = [
      {
        scope: "team:ml",
        quota: null,
        atLimit: true,
        lines: [line("gpus:H100-80G", 20, 16, 20), line("memory", 96.5, 512, null)],
      },
      { scope: "team:web", quota: null, atLimit: false, lines: [] },
    ];
    const lines = quotasTable(views).trim().split("\n");
    expect(lines[0]).toMatch(/^SCOPE\s+RESOURCE\s+HELD\s+GUARANTEED\s+LIMIT\s+BORROWED$/);
    expect(lines[1]).toMatch(/^team:ml \(at limit\)\s+gpus:H100-80G\s+20\s+16\s+20\s+4$/);
    expect(lines[2]).toMatch(/^\s+memory \(GiB\)\s+96\.5\s+512\s+-\s+0$/);
    expect(lines[3]).toMatch(/^team:web\s+-\s+0\s+0\s+-\s+0$/);
  });
});
