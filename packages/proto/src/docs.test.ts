// docs/protocol.md is the operator's description of the wire contract: every message an Envelope
// can carry must have its own heading there, so a message added to the .proto without a word in the
// docs fails here instead of leaving the page promising it as "coming next".
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EnvelopeSchema } from "./index";

const protocolDoc = readFileSync(new URL("../../../docs/protocol.md", import.meta.url), "utf8");
const headings = protocolDoc
  .split("\n")
  .filter((line) => line.startsWith("### "))
  .map((line) => line.slice(4));

describe("docs/protocol.md", () => {
  const messages = EnvelopeSchema.oneofs
    .flatMap((oneof) => oneof.fields)
    .map((field) => field.message?.name)
    .filter((name): name is string => name !== undefined);

  it("reads every message of the Envelope", () => {
    expect(messages.length).toBeGreaterThan(10);
  });

  it.each(messages)("has a heading naming %s", (name) => {
    const named = headings.some((heading) => heading.split(/[\s/,]+/).includes(name));
    expect(named, `no "### …${name}…" heading in docs/protocol.md`).toBe(true);
  });
});
