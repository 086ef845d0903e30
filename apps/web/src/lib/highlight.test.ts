import { describe, expect, it } from "vitest";
import { countMatches, splitMatches } from "./highlight";

describe("splitMatches", () => {
  it("wraps every case-insensitive match and keeps the text around it", () => {
    expect(splitMatches("POST /v1/chat 200 post", "post")).toEqual([
      { text: "POST", isMatch: true },
      { text: " /v1/chat 200 ", isMatch: false },
      { text: "post", isMatch: true },
    ]);
  });

  it("leaves a line alone for an empty search and counts matches over lines", () => {
    expect(splitMatches("abc", "")).toEqual([{ text: "abc", isMatch: false }]);
    expect(countMatches(["aXa", "b", "xx"], "x")).toBe(3);
    expect(countMatches(["aaa"], "")).toBe(0);
  });
});
