import { describe, expect, it } from "vitest";
import { messageOf } from "./message-of";

describe("messageOf", () => {
  it("gives an Error's message, not its name or stack", () => {
    expect(messageOf(new TypeError("bad port"))).toBe("bad port");
  });

  it("gives the string form of anything else that was thrown", () => {
    expect(messageOf("plain words")).toBe("plain words");
    expect(messageOf(42)).toBe("42");
    expect(messageOf(undefined)).toBe("undefined");
  });
});
