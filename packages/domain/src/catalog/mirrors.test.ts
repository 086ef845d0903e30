import { describe, expect, it } from "vitest";
import { mirrorFileUrl, mirrorOrder, mirrorPathsInCatalog, parseMirrors } from "./mirrors";

describe("parseMirrors", () => {
  it("reads NAME=URL pairs in order, each base ending in /", () => {
    expect(parseMirrors(" a=http://10.0.0.5:8000/models , b=https://b.example/ ")).toEqual({
      ok: true,
      mirrors: [
        { name: "a", baseUrl: "http://10.0.0.5:8000/models/" },
        { name: "b", baseUrl: "https://b.example/" },
      ],
    });
    expect(parseMirrors("")).toEqual({ ok: true, mirrors: [] });
  });

  it("names each entry it refuses and why", () => {
    const parsed = parseMirrors(
      "http://x/,a=ftp://x/,b=https://u:p@x/,c=not a url,d=http://x/?t=1,e=http://x/,e=http://y/",
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual([
      expect.stringContaining('mirror "http://x/": write NAME=URL'),
      expect.stringContaining("not an http(s):// or s3:// URL"),
      expect.stringContaining("user or password"),
      expect.stringContaining('"not a url" is not a URL'),
      expect.stringContaining("query or fragment"),
      'mirror "e" is named twice',
    ]);
  });
});

describe("mirrorOrder", () => {
  const mirrors = [
    { name: "primary", baseUrl: "http://p/" },
    { name: "peer1", baseUrl: "http://q/" },
    { name: "peer2", baseUrl: "http://r/" },
  ];
  const order = (answers: Record<string, "up" | "down">) =>
    mirrorOrder(mirrors, (name) => answers[name]).map((mirror) => mirror.name);

  it("keeps the settings' order while the primary answers", () => {
    expect(order({ primary: "up", peer1: "up", peer2: "up" })).toEqual([
      "primary",
      "peer1",
      "peer2",
    ]);
  });

  it("puts a peer that answers before a primary that is down, which stays last", () => {
    expect(order({ primary: "down", peer1: "down", peer2: "up" })).toEqual([
      "peer2",
      "primary",
      "peer1",
    ]);
  });

  it("puts mirrors not checked yet between those up and those down", () => {
    expect(order({ primary: "down", peer2: "up" })).toEqual(["peer2", "peer1", "primary"]);
  });
});

describe("mirror paths", () => {
  it("encodes each segment under the base", () => {
    expect(mirrorFileUrl("http://m/models", "org/a b/m#1.gguf")).toBe(
      "http://m/models/org/a%20b/m%231.gguf",
    );
  });

  it("lists the models and adapters that load each mirror path", () => {
    const users = mirrorPathsInCatalog([
      { name: "qwen", source: "mirror:org/qwen.gguf#sha256=" + "0".repeat(64) },
      {
        name: "llama",
        source: "mirror:org/llama.gguf",
        adapters: [{ name: "sql", source: "mirror:org/qwen.gguf" }],
      },
      { name: "ext" },
      { name: "web", source: "https://h/org/qwen.gguf" },
    ]);
    expect(Object.fromEntries(users)).toEqual({
      "org/qwen.gguf": ["qwen", "llama:sql"],
      "org/llama.gguf": ["llama"],
    });
  });
});
