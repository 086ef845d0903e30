import { describe, expect, it } from "vitest";
import { formatLocation, labelKeyProblem, locationOf, parseDomain } from "./domains";
import { applyLabelEdit, effectiveLabels, parseLabelEdit } from "./labels";

describe("facility domains", () => {
  const labels = { "llmgw.io/site": "dc1", "llmgw.io/rack": "r12", "llmgw.io/pdu": "p7", gpu: "x" };

  it("reads a node's location from its llmgw.io labels, widest first", () => {
    expect(locationOf(labels)).toEqual([
      { kind: "site", value: "dc1" },
      { kind: "rack", value: "r12" },
      { kind: "pdu", value: "p7" },
    ]);
    expect(formatLocation(labels)).toBe("dc1/-/-/r12/p7");
    expect(formatLocation({ gpu: "x" })).toBe("-");
  });

  it("parses rack=r12 and names what is wrong with a bad domain", () => {
    expect(parseDomain("rack=r12")).toEqual({ ok: true, domain: { kind: "rack", value: "r12" } });
    expect(parseDomain("shelf=1")).toMatchObject({
      ok: false,
      error: expect.stringContaining('"shelf=1"'),
    });
    expect(parseDomain("rack=")).toMatchObject({
      ok: false,
      error: expect.stringContaining("no value"),
    });
    expect(parseDomain("rack=a b")).toMatchObject({
      ok: false,
      error: expect.stringContaining('"a b"'),
    });
  });

  it("refuses unknown llmgw.io keys and malformed keys, naming them", () => {
    expect(labelKeyProblem("llmgw.io/rack")).toBeUndefined();
    expect(labelKeyProblem("llmgw.io/fabric")).toBeUndefined();
    expect(labelKeyProblem("team")).toBeUndefined();
    expect(labelKeyProblem("llmgw.io/shelf")).toContain('"llmgw.io/shelf"');
    expect(labelKeyProblem("llmgw.io/shelf")).toContain("llmgw.io/fabric");
    expect(labelKeyProblem("-bad")).toContain('"-bad"');
    expect(labelKeyProblem("Bad_Prefix/x")).toContain("prefix");
  });
});

describe("label edits", () => {
  it("sets with key=value and removes with key-, the store's labels winning over the agent's", () => {
    const parsed = parseLabelEdit(["llmgw.io/rack=r13", "team-"]);
    expect(parsed).toEqual({
      ok: true,
      edit: { set: { "llmgw.io/rack": "r13" }, remove: ["team"] },
    });
    if (!parsed.ok) return;
    const stored = applyLabelEdit({ team: "ml", "llmgw.io/pdu": "p1" }, parsed.edit);
    expect(stored).toEqual({ "llmgw.io/pdu": "p1", "llmgw.io/rack": "r13" });
    expect(effectiveLabels({ "llmgw.io/rack": "r12", team: "infra" }, stored)).toEqual({
      "llmgw.io/rack": "r13",
      team: "infra",
      "llmgw.io/pdu": "p1",
    });
  });

  it("names every bad word at once and refuses an empty edit", () => {
    const parsed = parseLabelEdit(["llmgw.io/rack=r 1", "oops", "llmgw.io/floor=2"]);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toHaveLength(3);
    expect(parsed.errors.join("\n")).toMatch(/"r 1".*\n.*"oops".*\n.*llmgw\.io\/floor/s);
    expect(parseLabelEdit([])).toMatchObject({
      ok: false,
      errors: [expect.stringContaining("no labels")],
    });
  });
});
