// A field that tries to start a new line in the server log stays on its own line.
import { describe, expect, it } from "vitest";
import { formatLogLine, oneLogLine } from "./log-line";

describe("server log lines", () => {
  it("keeps a username that forges a log line on one line", () => {
    const username = "eve\n2030-01-01T00:00:00.000Z server admin signed in from 10.0.0.1";
    const written = formatLogLine(`sign-in refused: "${username}"`, new Date(0));
    expect(written.split("\n")).toEqual([
      '1970-01-01T00:00:00.000Z server sign-in refused: "eve\\n2030-01-01T00:00:00.000Z server admin signed in from 10.0.0.1"',
      "",
    ]);
  });

  it("escapes every character a terminal or log reader could treat as a line end or command", () => {
    expect(oneLogLine("a\rb\tc\u0000d\u001b[2Je\u0085f\u2028g")).toBe(
      "a\\rb\\tc\\u0000d\\u001b[2Je\\u0085f\\u2028g",
    );
    expect(oneLogLine("plain text, ünïcode kept")).toBe("plain text, ünïcode kept");
  });
});
