import { describe, expect, it } from "vitest";
import { mirrorPathOf, pickleExtension, sourceKind, sourceSha256Of } from "./source";

describe("sourceKind", () => {
  it.each([
    ["Qwen/Qwen2.5-0.5B-Instruct", "hub"],
    ["hf:meta-llama/Llama-3.1-8B", "hub"],
    ["https://huggingface.co/x/y/resolve/main/a.gguf", "url"],
    ["file:///srv/models/a", "file"],
    ["/srv/models/a.gguf", "file"],
    ["qwen", undefined],
    ["relative/path/deeper", undefined],
    ["../x/y", undefined],
    ["mirror:org/model/model.safetensors", "mirror"],
    [`mirror:org/m.gguf#sha256=${"Ab".repeat(32)}`, "mirror"],
    ["mirror:org/../etc/passwd", undefined],
    ["mirror:/etc/passwd", undefined],
    ["mirror:org//m.gguf", undefined],
    ["mirror:org/m.gguf#sha256=abc", undefined],
  ])("reads %s as %s", (source, kind) => {
    expect(sourceKind(source)).toBe(kind);
  });
});

describe("pickleExtension", () => {
  it("cuts a query or fragment first and ignores case", () => {
    expect(pickleExtension("https://h/m.PT?x=1")).toBe(".pt");
    expect(pickleExtension("https://h/m.pth#x")).toBe(".pth");
    expect(pickleExtension("hf:org/m.pt2")).toBe(".pt2");
  });

  it("does not mistake a version for an extension", () => {
    expect(pickleExtension("Qwen/Qwen2.5-0.5B")).toBeUndefined();
    expect(pickleExtension("/m/model.safetensors")).toBeUndefined();
    expect(pickleExtension("https://h/m.bin.safetensors?a=.bin")).toBeUndefined();
  });
});

describe("mirror sources", () => {
  it("reads the path and the checksum a mirror source names", () => {
    const sha = "Ab".repeat(32);
    expect(mirrorPathOf(`mirror:org/m/model.safetensors#sha256=${sha}`)).toBe(
      "org/m/model.safetensors",
    );
    expect(sourceSha256Of(`mirror:org/m.gguf#sha256=${sha}`)).toBe("ab".repeat(32));
    expect(sourceSha256Of("mirror:org/m.gguf")).toBeUndefined();
    expect(mirrorPathOf("https://h/org/m.gguf")).toBeUndefined();
  });

  it("holds a mirror source to the pickle rule", () => {
    expect(pickleExtension("mirror:org/m/pytorch_model.bin")).toBe(".bin");
  });
});
