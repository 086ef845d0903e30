import { describe, expect, it } from "vitest";
import type { EventView } from "@llmgw/api";
import type { CtlValues } from "../args";
import { parseCtlArgs } from "../program";
import { eventsInput, eventsTable } from "./events";

function values(argv: string[]): CtlValues {
  const parsed = parseCtlArgs(["events", ...argv]);
  if (typeof parsed === "number") throw new Error(`events ${argv.join(" ")} was refused`);
  return parsed.values;
}

describe("ctl events", () => {
  it("turns flags into the list filter", () => {
    expect(
      eventsInput(
        values([
          "--kind",
          "node.lost,key.created",
          "--severity",
          "error",
          "--subject",
          "model:sim-chat",
          "--limit",
          "5",
        ]),
      ),
    ).toEqual({
      kinds: ["node.lost", "key.created"],
      severities: ["error"],
      subjectType: "model",
      subjectId: "sim-chat",
      limit: 5,
    });
    expect(eventsInput(values(["--subject", "node"]))).toMatchObject({ subjectType: "node" });
  });

  it("names a kind, severity or subject it does not know", () => {
    expect(() => eventsInput(values(["--kind", "node.exploded"]))).toThrow(
      /--kind does not know "node.exploded"; it takes node.unreachable/,
    );
    expect(() => eventsInput(values(["--severity", "fatal"]))).toThrow(/info, warning, error/);
    expect(() => eventsInput(values(["--subject", "gpu:1"]))).toThrow(
      /--subject does not know "gpu"/,
    );
    expect(() => eventsInput(values(["--limit", "0"]))).toThrow(/--limit takes a whole number/);
  });

  it("prints params as key=value and stars what needs attention", () => {
    const event: EventView = {
      id: 7,
      at: "2030-01-01T00:00:00.000Z",
      kind: "replica.failed",
      severity: "error",
      subjectType: "replica",
      subjectId: "chat-1",
      params: { model: "chat", node: "gpu-1", endpoint: null },
      isAcknowledged: false,
    };
    const table = eventsTable([event, { ...event, id: 8, isAcknowledged: true }]);
    expect(table).toMatch(/error \*\s+replica\.failed\s+replica:chat-1\s+model=chat node=gpu-1\n/);
    expect(table).not.toContain("endpoint");
    expect(table.split("\n")[2]).toMatch(/error\s+replica\.failed/);
    expect(table.split("\n")[2]).not.toContain("*");
  });
});
