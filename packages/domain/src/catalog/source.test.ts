import { describe, expect, it } from "vitest";
import { pickleExtension, sourceKind } from "./source";

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
