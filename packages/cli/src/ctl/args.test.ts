import { describe, expect, it } from "vitest";
import { TRPCClientError } from "@trpc/client";
import {
  parseCountFlag,
  parseCtlArgs,
  parseDurationSeconds,
  parseFallbacks,
  parseLinesFlag,
  required,
  UsageError,
} from "./args";
import { explain, withDetails } from "./client";
import { COMMANDS, usageForms, usageText } from "./commands/index";

describe("ctl arguments", () => {
  it("splits the command, its arguments and the flags", () => {
    expect(parseCtlArgs(["logs", "sim-h100-a", "-n", "50", "--follow", "--source", "r-1"])).toEqual(
      {
        command: "logs",
        args: ["sim-h100-a"],
        values: { lines: "50", follow: true, source: "r-1" },
      },
    );
    expect(parseCtlArgs(["replicas", "--model", "m", "--node", "n", "--json"]).values).toEqual({
      model: "m",
      node: "n",
      json: true,
    });
    expect(() => parseCtlArgs(["models", "--colour"])).toThrow(UsageError);
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

  it("has a usage line for every command the issue asks for", () => {
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
    expect(usageText()).toMatch(/^ {2}model add FILE\|PRESET$/m);
    expect(usageText()).toMatch(
      /^ {2}logs NODE \[--source REPLICA\] \[-n N\] \[--follow\] \[--json\]\s+the agent's log/m,
    );
  });
});

describe("ctl help", () => {
  /** The usage column of each line under "commands:" (descriptions follow two or more spaces). */
  const helpUsages = () =>
    usageText()
      .split("\ncommands:\n")[1]!
      .split("\n\n")[0]!
      .split("\n")
      // A long usage's description sits alone on the next line, indented past the usage column.
      .filter((line) => /^ {2}\S/.test(line))
      .map((line) => line.trim().split(/ {2,}/)[0]!);

  const isBalanced = (usage: string) => {
    const open: string[] = [];
    for (const char of usage) {
      if (char === "[" || char === "(") open.push(char);
      else if (char === "]" && open.pop() !== "[") return false;
      else if (char === ")" && open.pop() !== "(") return false;
    }
    return open.length === 0;
  };

  it("names only commands of the table, each line a whole form of its command's usage", () => {
    const usages = helpUsages();
    expect(usages.length).toBeGreaterThan(Object.keys(COMMANDS).length);
    for (const usage of usages) {
      const [name, ...rest] = usage.split(" ");
      const command = COMMANDS[name!];
      expect(command, `help names "${name}", which is no command`).toBeDefined();
      expect(isBalanced(usage), `help line "${usage}" splits inside brackets`).toBe(true);
      const forms = usageForms(command!.usage);
      const asForm = forms[0] === usage ? usage : rest.join(" ");
      expect(forms, `help line "${usage}"`).toContain(asForm);
    }
  });

  it("keeps a choice inside parentheses on one line", () => {
    expect(usageText()).toMatch(/^ {2}roles grant \(--user NAME \| --group NAME\) --role R/m);
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
