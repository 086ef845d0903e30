import { describe, expect, it } from "vitest";
import {
  hubFilePath,
  hubListPath,
  hubRepoOf,
  hubReposInCatalog,
  isInHubRepo,
  parseHubFileList,
} from "./hub-mirror";

const sha = "ab".repeat(32);

describe("hub ids on the mirrors", () => {
  it("reads hf:org/name and org/name, and lays the repository out as HF_ENDPOINT mirrors do", () => {
    expect(hubRepoOf("hf:org/tiny")).toBe("org/tiny");
    expect(hubRepoOf("org/tiny")).toBe("org/tiny");
    expect(hubRepoOf("mirror:org/tiny/model.gguf")).toBeUndefined();
    expect(hubListPath("org/tiny")).toBe("api/models/org/tiny/revision/main");
    expect(hubFilePath("org/tiny", "sub/model.safetensors")).toBe(
      "org/tiny/resolve/main/sub/model.safetensors",
    );
    expect(isInHubRepo("org/tiny/resolve/main/model.safetensors", "org/tiny")).toBe(true);
    expect(isInHubRepo("api/models/org/tiny/revision/main", "org/tiny")).toBe(true);
    expect(isInHubRepo("org/tiny-2/resolve/main/model.safetensors", "org/tiny")).toBe(false);
  });

  it("reads the list's files with lfs sha256 and size, leaving dot files out", () => {
    const list = JSON.stringify({
      siblings: [
        { rfilename: ".gitattributes" },
        { rfilename: "config.json" },
        { rfilename: "model.safetensors", lfs: { sha256: sha.toUpperCase(), size: 12 } },
      ],
    });
    expect(parseHubFileList(list)).toEqual({
      files: [
        { path: "config.json", sizeBytes: undefined, sha256: undefined },
        { path: "model.safetensors", sizeBytes: 12, sha256: sha },
      ],
    });
  });

  it("refuses a list naming a path outside the repository, or that is no list", () => {
    for (const rfilename of ["../x", "a/../../x", "/etc/passwd", "a//b", "./x"])
      expect(parseHubFileList(JSON.stringify({ siblings: [{ rfilename }] }))).toEqual({
        error: expect.stringContaining("is not a safe file path"),
      });
    expect(parseHubFileList("<html>")).toEqual({ error: "it is not JSON" });
    expect(parseHubFileList("{}")).toEqual({ error: "it has no siblings list" });
    const badSha = { siblings: [{ rfilename: "m.gguf", lfs: { sha256: "zz" } }] };
    expect(parseHubFileList(JSON.stringify(badSha))).toEqual({
      error: "its lfs.sha256 for m.gguf is not a sha256",
    });
  });

  it("names the catalog's hub repositories with the models and adapters loading each", () => {
    const users = hubReposInCatalog([
      { name: "a", source: "org/tiny" },
      { name: "b", source: "hf:org/tiny", adapters: [{ name: "sql", source: "org/sql-lora" }] },
      { name: "c", source: "mirror:org/x/model.gguf" },
    ]);
    expect([...users]).toEqual([
      ["hf:org/tiny", ["a", "b"]],
      ["hf:org/sql-lora", ["b:sql"]],
    ]);
  });
});
