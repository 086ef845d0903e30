import { describe, expect, it } from "vitest";
import { withMarkedSection } from "./doc-section.ts";

describe("withMarkedSection", () => {
  it("replaces only its own section and keeps the text around it", () => {
    const doc = "# T\n\nbefore\n<!-- soak:run:start -->\nold\n<!-- soak:run:end -->\nafter\n";
    expect(withMarkedSection("soak:run", doc, "new\n")).toBe(
      "# T\n\nbefore\n<!-- soak:run:start -->\nnew\n<!-- soak:run:end -->\nafter\n",
    );
  });

  it("appends the section when the document has none yet", () => {
    expect(withMarkedSection("bench:x", "# T\n", "body")).toBe(
      "# T\n\n<!-- bench:x:start -->\nbody\n<!-- bench:x:end -->\n",
    );
  });
});
