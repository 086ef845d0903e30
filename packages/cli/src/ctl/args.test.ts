import { describe, expect, it, vi } from "vitest";
import { must } from "@llmgw/domain";
import { TRPCClientError } from "@trpc/client";
import {
  parseCountFlag,
  parseDurationSeconds,
  parseFallbacks,
  parseLinesFlag,
  required,
  UsageError,
} from "./args";
import { explain, withDetails } from "./client";
import { COMMANDS, usageForms } from "./commands/index";
import { parseCtlArgs } from "./program";

/** Runs the parser with stdout and stderr caught; answers what each received. */
function parseCaught(argv: string[]) {
  const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  const result = parseCtlArgs(argv);
  const text = (spy: typeof out) => spy.mock.calls.map(([chunk]) => String(chunk)).join("");
  const caught = { result, stdout: text(out), stderr: text(err) };
  out.mockRestore();
  err.mockRestore();
  return caught;
}

describe("ctl arguments", () => {
  it("splits the command, its arguments and the flags", () => {
    expect(
      parseCtlArgs(["logs", "sim-h100-a", "-n", "50", "--follow", "--source", "r-1"]),
    ).toMatchObject({
      name: "logs",
      args: ["sim-h100-a"],
      values: { lines: "50", follow: true, source: "r-1" },
    });
    expect(parseCtlArgs(["replicas", "--model", "m", "--node", "n", "--json"])).toMatchObject({
      values: { model: "m", node: "n", json: true },
    });
    expect(parseCtlArgs(["mcp", "add", "t", "--header", "A: 1", "--header", "B: 2"])).toMatchObject(
      { args: ["add", "t"], values: { header: ["A: 1", "B: 2"] } },
    );
  });

  it("refuses a flag the command does not take, an unknown command and stray words, with 2", () => {
    const colour = parseCaught(["models", "--colour"]);
    expect(colour.result).toBe(2);
    expect(colour.stderr).toMatch(
      /^llmgw ctl models: unknown option '--colour'\n.*llmgw ctl models --help/,
    );
    // --owner belongs to keys and usage, not to models.
    expect(parseCaught(["models", "--owner", "team:ml"]).result).toBe(2);
    const unknown = parseCaught(["frob"]);
    expect(unknown.result).toBe(2);
    expect(unknown.stderr).toMatch(/^llmgw ctl: unknown command 'frob'/);
    expect(parseCaught(["whoami", "extra"]).result).toBe(2);
  });

  it("checks -n and names the limit", () => {
    expect(parseLinesFlag(undefined)).toBe(200);
    expect(parseLinesFlag("2000")).toBe(2000);
    for (const bad of ["0", "2001", "ten", "1.5"]) {
      expect(() => parseLinesFlag(bad)).toThrow(/-n takes a whole number of lines from 1 to 2000/);
    }
  });

  it("reads fallbacks as a comma list, with none to clear", () => {
    expect(parseFallbacks("a, b,,c")).toEqual(["a", "b", "c"]);
    expect(parseFallbacks("none")).toEqual([]);
    expect(parseFallbacks("")).toEqual([]);
  });

  it("names a missing argument and the usage", () => {
    expect(() => required([], 0, "MODEL", "retry MODEL")).toThrow(
      "MODEL is missing; usage: retry MODEL",
    );
  });

  it("has a command for every one the issue asks for", () => {
    for (const name of [
      "models",
      "model",
      "retry",
      "explain-placement",
      "replicas",
      "status",
      "logs",
      "reclaim",
      "presets",
      "nodes",
      "login",
    ]) {
      expect(COMMANDS[name], name).toBeDefined();
    }
  });
});

describe("ctl help", () => {
  it("lists every command of the table and no other, exiting 0", () => {
    const help = parseCaught(["--help"]);
    expect(help.result).toBe(0);
    const [, commandsSection = ""] = help.stdout.split("\nCommands:\n");
    const [commandLines = ""] = commandsSection.split("\n\n");
    const listed = commandLines
      .split("\n")
      .filter((line) => /^ {2}\S/.test(line))
      .map((line) => line.trim().split(" ")[0]);
    expect(listed).toEqual([...Object.keys(COMMANDS), "completion", "help"]);
    expect(help.stdout).toMatch(
      /^ {2}logs NODE \[--source REPLICA\] \[--request ID\] \[-n N\] \[-f\]\s+the agent's log/m,
    );
  });

  it("shows each form of a command's usage and only the flags it takes", () => {
    const help = parseCaught(["roles", "--help"]);
    expect(help.result).toBe(0);
    for (const form of usageForms(must(COMMANDS.roles, "the roles command").usage).slice(1))
      expect(help.stdout).toContain(`llmgw ctl roles ${form}\n`);
    expect(help.stdout).toContain("llmgw ctl roles grant (--user NAME | --group NAME) --role R");
    expect(help.stdout).toMatch(/--scope <OWNER>/);
    expect(help.stdout).not.toMatch(/--owner|--collect/);
  });

  it("prints the usage and exits 2 when no command is given", () => {
    const bare = parseCaught([]);
    expect(bare.result).toBe(2);
    expect(bare.stdout).toMatch(/^Usage: llmgw ctl <command> \[options\]/);
  });

  it("keeps a choice inside parentheses in one form", () => {
    expect(usageForms("a [b | c] | d (e | f)")).toEqual(["a [b | c]", "d (e | f)"]);
  });
});

describe("failures", () => {
  it("lists each refusal line once, under the sentence's head", () => {
    const lines = ["source: pickle weights", "profiles[0].gpu: engine vllm needs a GPU"];
    expect(withDetails(`model "x" was refused: ${lines.join("; ")}`, lines)).toBe(
      'model "x" was refused:\n  - source: pickle weights\n  - profiles[0].gpu: engine vllm needs a GPU',
    );
    expect(withDetails("2 problems", lines)).toBe(
      "2 problems:\n  - source: pickle weights\n  - profiles[0].gpu: engine vllm needs a GPU",
    );
    expect(withDetails("name: model name is required", ["name: model name is required"])).toBe(
      "name: model name is required",
    );
    expect(withDetails("plain", [])).toBe("plain");
  });

  it("explains a refusal from the server with its detail lines", () => {
    const error = new TRPCClientError('model "x" was refused: a; b', {
      result: {
        error: {
          message: 'model "x" was refused: a; b',
          code: -32600,
          data: { code: "BAD_REQUEST", details: ["a", "b"] },
        },
      },
    });
    expect(explain(error, "http://s")).toBe('model "x" was refused:\n  - a\n  - b');
  });
});

describe("key flags", () => {
  it("reads durations and counts, and names the flag on a mistake", () => {
    expect(parseDurationSeconds("expires", "30d")).toBe(30 * 86_400);
    expect(parseDurationSeconds("expires", "90m")).toBe(5_400);
    expect(() => parseDurationSeconds("expires", "30 days")).toThrow(/--expires takes a duration/);
    expect(() => parseDurationSeconds("expires", "0d")).toThrow(UsageError);
    expect(parseCountFlag("rpm", undefined)).toBeUndefined();
    expect(parseCountFlag("rpm", "600")).toBe(600);
    expect(() => parseCountFlag("max-concurrent", "1.5")).toThrow(
      /--max-concurrent takes a whole number/,
    );
  });
});
