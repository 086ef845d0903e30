import { describe, expect, it } from "vitest";
import { parseImageRequest, parseImageSize } from "./image-request";

const seven = () => 7;

describe("image requests", () => {
  it("reads OpenAI's fields with defaults", () => {
    expect(parseImageRequest({ prompt: "a fox" }, seven)).toEqual({
      ok: true,
      request: { prompt: "a fox", widthPx: 1024, heightPx: 1024, count: 1, seed: 7 },
    });
    const full = parseImageRequest(
      { prompt: "a fox", size: "512x768", n: 3, seed: 11, response_format: "b64_json" },
      seven,
    );
    expect(full).toEqual({
      ok: true,
      request: { prompt: "a fox", widthPx: 512, heightPx: 768, count: 3, seed: 11 },
    });
  });

  it("refuses url pictures and says to ask for b64_json", () => {
    const check = parseImageRequest({ prompt: "x", response_format: "url" }, seven);
    expect(check).toMatchObject({ ok: false, field: "response_format" });
    if (!check.ok) expect(check.why).toContain("b64_json");
  });

  it.each([
    ["1000x1024", "multiple of 16"],
    ["128x128", "outside"],
    ["4096x1024", "outside"],
    ["big", "WIDTHxHEIGHT"],
    [1024, "WIDTHxHEIGHT"],
  ])("refuses size %s", (size, words) => {
    const check = parseImageSize(size);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.why).toContain(words);
  });

  it.each([
    [{ prompt: "" }, "prompt"],
    [{ prompt: 3 }, "prompt"],
    [{ prompt: "x", n: 0 }, "n"],
    [{ prompt: "x", n: 5 }, "n"],
    [{ prompt: "x", n: 1.5 }, "n"],
    [{ prompt: "x", seed: -1 }, "seed"],
    [{ prompt: "x", seed: "1" }, "seed"],
    [{ prompt: "x", size: "1024x1000" }, "size"],
  ])("refuses %j naming %s", (body, field) => {
    expect(parseImageRequest(body, seven)).toMatchObject({ ok: false, field });
  });
});
