import { describe, expect, it } from "vitest";
import {
  effectiveGrant,
  listAfterGrant,
  planRevoke,
  toolGranted,
  type PlacedGrantRow,
  type RevokeChange,
} from "./grants";
import { must } from "../must";
import { splitGatewayToolName } from "./tool-names";

// A small tree: org:acme → team:ml → project:search → user:ada, and key:k1 owned by user:ada.
const ABOVE: Record<string, string[]> = {
  "org:acme": [],
  "team:ml": ["org:acme"],
  "team:ops": ["org:acme"],
  "project:search": ["org:acme", "team:ml"],
  "user:ada": ["org:acme", "team:ml", "project:search"],
  "key:k1": ["org:acme", "team:ml", "project:search", "user:ada"],
};
const aboveOf = (subject: string) => must(ABOVE[subject], `the levels above ${subject}`);
const levelsOf = (subject: string) => [...aboveOf(subject), subject];

/** Applies revoke changes to a row set, as the store would. */
function apply(rows: Map<string, string[]>, changes: RevokeChange[]): Map<string, string[]> {
  const next = new Map(rows);
  for (const change of changes) {
    if (change.kind === "delete") next.delete(change.subject);
    else next.set(change.subject, change.tools);
  }
  return next;
}

function placed(rows: Map<string, string[]>): PlacedGrantRow[] {
  return [...rows].map(([subject, tools]) => ({ subject, tools, above: aboveOf(subject) }));
}

function revoke(rows: Map<string, string[]>, subject: string, patterns: string[] | null) {
  return apply(
    rows,
    planRevoke({ subject, above: aboveOf(subject), patterns, rows: placed(rows) }),
  );
}

const toolsFor = (rows: Map<string, string[]>, subject: string) =>
  effectiveGrant(levelsOf(subject), rows).tools;

describe("effectiveGrant", () => {
  it("gives nothing when no level names a list", () => {
    expect(effectiveGrant(levelsOf("key:k1"), new Map())).toEqual({ tools: [], from: null });
  });

  it("inherits from the nearest level above that names a list", () => {
    const rows = new Map([["team:ml", ["echo"]]]);
    expect(effectiveGrant(levelsOf("key:k1"), rows)).toEqual({ tools: ["echo"], from: "team:ml" });
    expect(toolsFor(rows, "team:ops")).toEqual([]);
  });

  it("lets a level beneath name its own list, and a closed level grants nothing", () => {
    const rows = new Map([
      ["org:acme", ["*"]],
      ["project:search", ["get-sum"]],
      ["user:ada", []],
    ]);
    expect(toolsFor(rows, "team:ml")).toEqual(["*"]);
    expect(toolsFor(rows, "project:search")).toEqual(["get-sum"]);
    expect(toolsFor(rows, "key:k1")).toEqual([]);
    expect(effectiveGrant(levelsOf("key:k1"), rows).from).toBe("user:ada");
  });
});

describe("toolGranted", () => {
  it("matches names and * patterns, and nothing on an empty list", () => {
    expect(toolGranted(["echo"], "echo")).toBe(true);
    expect(toolGranted(["get-*"], "get-sum")).toBe(true);
    expect(toolGranted(["get-*"], "echo")).toBe(false);
    expect(toolGranted([], "echo")).toBe(false);
  });
});

describe("listAfterGrant", () => {
  it("adds to the level's own list", () => {
    expect(listAfterGrant(["echo"], ["*"], ["get-sum"])).toEqual(["echo", "get-sum"]);
  });
  it("starts from what the level inherited when it names no list yet", () => {
    expect(listAfterGrant(undefined, ["echo"], ["get-sum"])).toEqual(["echo", "get-sum"]);
  });
  it("opens a closed level only to what is granted", () => {
    expect(listAfterGrant([], ["*"], ["echo"])).toEqual(["echo"]);
  });
});

describe("planRevoke", () => {
  it("takes the tools from every level beneath, not only the copies a first grant took", () => {
    let rows = new Map([
      ["org:acme", ["echo", "get-sum"]],
      ["team:ml", ["echo", "get-sum", "get-env"]],
      ["key:k1", ["echo"]],
    ]);
    rows = revoke(rows, "org:acme", ["echo"]);
    expect(rows.get("org:acme")).toEqual(["get-sum"]);
    expect(rows.get("team:ml")).toEqual(["get-env", "get-sum"]);
    expect(toolGranted(toolsFor(rows, "key:k1"), "echo")).toBe(false);
    // The key named only echo: it stays closed while levels above name tools.
    expect(rows.get("key:k1")).toEqual([]);
    expect(toolsFor(rows, "key:k1")).toEqual([]);
  });

  it("leaves levels beside or above alone", () => {
    let rows = new Map([
      ["org:acme", ["echo"]],
      ["team:ops", ["echo"]],
    ]);
    rows = revoke(rows, "team:ml", null);
    expect(rows.get("team:ml")).toEqual([]);
    expect(rows.get("team:ops")).toEqual(["echo"]);
    expect(rows.get("org:acme")).toEqual(["echo"]);
    expect(toolsFor(rows, "key:k1")).toEqual([]);
    expect(toolsFor(rows, "team:ops")).toEqual(["echo"]);
  });

  it("closes an inheriting level when its inherited tools are taken away", () => {
    let rows = new Map([["org:acme", ["echo", "get-sum"]]]);
    rows = revoke(rows, "project:search", ["echo"]);
    expect(rows.get("project:search")).toEqual(["get-sum"]);
    expect(toolsFor(rows, "key:k1")).toEqual(["get-sum"]);
    expect(toolsFor(rows, "team:ml")).toEqual(["echo", "get-sum"]);
  });

  it("keeps a closed level closed while a level beneath names tools", () => {
    let rows = new Map([
      ["team:ml", ["echo"]],
      ["user:ada", ["get-sum"]],
    ]);
    rows = revoke(rows, "team:ml", ["echo"]);
    expect(rows.get("team:ml")).toEqual([]);
    expect(rows.get("user:ada")).toEqual(["get-sum"]);
  });

  it("drops a row left empty when no level above or beneath names anything", () => {
    let rows = new Map([["team:ml", ["echo"]]]);
    rows = revoke(rows, "team:ml", ["echo"]);
    expect(rows.has("team:ml")).toBe(false);
    expect(toolsFor(rows, "key:k1")).toEqual([]);
  });

  it("a whole-server revoke at the top leaves nobody with a tool", () => {
    let rows = new Map([
      ["org:acme", ["*"]],
      ["team:ml", ["echo"]],
      ["project:search", ["get-sum"]],
      ["key:k1", ["*"]],
    ]);
    rows = revoke(rows, "org:acme", null);
    for (const subject of Object.keys(ABOVE)) expect(toolsFor(rows, subject)).toEqual([]);
    expect(rows.size).toBe(0);
  });

  it("changes nothing when revoking from a level that has and inherits nothing", () => {
    expect(
      planRevoke({ subject: "team:ml", above: ["org:acme"], patterns: ["echo"], rows: [] }),
    ).toEqual([]);
  });
});

describe("splitGatewayToolName", () => {
  it("splits at the first dot", () => {
    expect(splitGatewayToolName("everything.echo")).toEqual({ server: "everything", tool: "echo" });
    expect(splitGatewayToolName("llmgw:admin.list_nodes")).toEqual({
      server: "llmgw:admin",
      tool: "list_nodes",
    });
    expect(splitGatewayToolName("a.b.c")).toEqual({ server: "a", tool: "b.c" });
    expect(splitGatewayToolName("nodot")).toBeNull();
    expect(splitGatewayToolName(".x")).toBeNull();
    expect(splitGatewayToolName("x.")).toBeNull();
  });
});
