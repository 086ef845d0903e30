import { describe, expect, it } from "vitest";
import { sayReply } from "./say";

describe("simulated answers a test asks for", () => {
  it("says the text between the markers, four characters a token", () => {
    const reply = sayReply("user: please [sim-say]Call +90 532[/sim-say] thanks", undefined);
    expect(reply).toEqual({ tokens: ["Call", " +90", " 532"], finishReason: "stop" });
  });

  it("stops at max_tokens, and says nothing for a prompt without the markers", () => {
    expect(sayReply("[sim-say]abcdefghij[/sim-say]", 2)).toEqual({
      tokens: ["abcd", "efgh"],
      finishReason: "length",
    });
    expect(sayReply("user: hello", undefined)).toBeNull();
  });
});
