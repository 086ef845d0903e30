import { describe, expect, it } from "vitest";
import { crc32Hex, formatApiKey, parseApiKey } from "./api-key-format";
import { modelAllowed, modelPatternMatches } from "./allowlist";

const prefix = "0123456789ab";
const secret = "f".repeat(40);

describe("API key format", () => {
  it("uses the standard CRC-32", () => {
    expect(crc32Hex("123456789")).toBe("cbf43926");
  });

  it("round-trips and rejects a flipped character by its checksum", () => {
    const key = formatApiKey(prefix, secret);
    expect(parseApiKey(key)).toEqual({ ok: true, prefix, secret });
    const flipped = key.replace("_ffff", "_fffe");
    const parsed = parseApiKey(flipped);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.why).toMatch(/checksum/);
    expect(parseApiKey("sk-something").ok).toBe(false);
  });
});

describe("model allowlist", () => {
  it("matches exact names and * patterns, and nothing for an empty list", () => {
    expect(modelPatternMatches("qwen*", "qwen-7b")).toBe(true);
    expect(modelPatternMatches("qwen*", "llama-qwen")).toBe(false);
    expect(modelPatternMatches("*", "anything")).toBe(true);
    expect(modelPatternMatches("a.b", "axb")).toBe(false);
    expect(modelAllowed([], "qwen-7b")).toBe(false);
    expect(modelAllowed(["llama", "qwen*"], "qwen-7b")).toBe(true);
  });

  it("answers the same for a pattern asked again, past the bound of patterns it compiles", () => {
    for (let round = 0; round < 2; round++) {
      expect(modelPatternMatches("*", "a\nb")).toBe(false);
      expect(modelPatternMatches("q*n", "qwen")).toBe(true);
      expect(modelPatternMatches("q*n", "qwen2")).toBe(false);
      for (let i = 0; i < 1_200; i++) expect(modelPatternMatches(`m${i}-*`, `m${i}-x`)).toBe(true);
    }
  });
});
