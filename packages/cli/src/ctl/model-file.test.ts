import { describe, expect, it } from "vitest";
import { CtlError } from "./client";
import { classifyAddArgument, parseDefinitions } from "./model-file";

describe("model add argument", () => {
  const files = new Set(["models.yaml", "defs.json", "notes.txt"]);
  const exists = (path: string) => files.has(path);

  it("is a file when it has a definition extension, otherwise a preset", () => {
    expect(classifyAddArgument("models.yaml", exists)).toEqual({
      kind: "file",
      path: "models.yaml",
    });
    expect(classifyAddArgument("defs.json", exists)).toEqual({ kind: "file", path: "defs.json" });
    expect(classifyAddArgument("sim-chat", exists)).toEqual({ kind: "preset", name: "sim-chat" });
  });

  it("refuses a missing definition file and a file of another kind, saying what to give", () => {
    expect(() => classifyAddArgument("missing.yml", exists)).toThrow(
      /no file "missing\.yml"; give a \.yaml, \.yml or \.json/,
    );
    expect(() => classifyAddArgument("notes.txt", exists)).toThrow(
      /is a file but not \.yaml, \.yml or \.json/,
    );
    expect(() => classifyAddArgument("./dir/model", exists)).toThrow(CtlError);
  });
});

describe("definition files", () => {
  it("reads one definition, a list, or a models: list, in YAML or JSON", () => {
    expect(parseDefinitions("name: a\nsource: /m\n", "x.yaml")).toEqual([
      { name: "a", source: "/m" },
    ]);
    expect(parseDefinitions("- name: a\n- name: b\n", "x.yml").map((d) => d.name)).toEqual([
      "a",
      "b",
    ]);
    expect(parseDefinitions("models:\n  - name: a\n", "x.yaml")).toEqual([{ name: "a" }]);
    expect(parseDefinitions('[{"name":"a"},{"name":"b"}]', "x.json")).toHaveLength(2);
  });

  it("refuses what is not a definition, naming the file and the item", () => {
    expect(() => parseDefinitions("name: [unclosed", "bad.yaml")).toThrow(
      /^bad\.yaml is not valid YAML: /,
    );
    expect(() => parseDefinitions("{", "bad.json")).toThrow(/^bad\.json is not valid JSON: /);
    expect(() => parseDefinitions("- name: a\n- just a string\n", "x.yaml")).toThrow(
      "x.yaml: item 2 is not a mapping of fields",
    );
    expect(() => parseDefinitions("[]", "x.json")).toThrow("x.json holds no model definition");
  });
});
