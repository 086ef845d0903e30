import { describe, expect, it } from "vitest";
import { ModelEndpointIndex } from "./endpoint-index";

const endpoint = (id: string) => ({ id });
const ids = (endpoints: readonly { id: string }[]) => endpoints.map((e) => e.id);

describe("the per-model endpoint index", () => {
  it("files endpoints under their model and answers each model's own", () => {
    const index = new ModelEndpointIndex<{ id: string }>();
    index.put("qwen", endpoint("q1"));
    index.put("qwen", endpoint("q2"));
    index.put("llama", endpoint("l1"));
    expect(ids(index.of("qwen"))).toEqual(["q1", "q2"]);
    expect(ids(index.of("llama"))).toEqual(["l1"]);
    expect(index.of("nobody")).toEqual([]);
    expect(ids(index.all()).sort()).toEqual(["l1", "q1", "q2"]);
  });

  it("moves an endpoint filed under another model, and keeps one id once", () => {
    const index = new ModelEndpointIndex<{ id: string }>();
    index.put("qwen", endpoint("r1"));
    index.put("qwen-renamed", endpoint("r1"));
    expect(index.of("qwen")).toEqual([]);
    expect(ids(index.of("qwen-renamed"))).toEqual(["r1"]);
    const replaced = endpoint("r1");
    index.put("qwen-renamed", replaced);
    expect(index.of("qwen-renamed")).toEqual([replaced]);
    expect(index.of("qwen-renamed")[0]).toBe(replaced);
  });

  it("removes an endpoint, and a model whose last endpoint went answers none", () => {
    const index = new ModelEndpointIndex<{ id: string }>();
    index.put("qwen", endpoint("q1"));
    index.put("qwen", endpoint("q2"));
    index.remove("q1");
    expect(ids(index.of("qwen"))).toEqual(["q2"]);
    index.remove("q2");
    index.remove("never-filed");
    expect(index.of("qwen")).toEqual([]);
    expect(index.all()).toEqual([]);
  });

  it("answers the same array until the model's set changes, and a change to another model keeps it", () => {
    const index = new ModelEndpointIndex<{ id: string }>();
    const q1 = endpoint("q1");
    index.put("qwen", q1);
    const first = index.of("qwen");
    expect(index.of("qwen")).toBe(first);
    index.put("llama", endpoint("l1"));
    index.remove("l1");
    index.put("qwen", q1);
    expect(index.of("qwen")).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    index.put("qwen", endpoint("q2"));
    expect(index.of("qwen")).not.toBe(first);
    expect(ids(index.of("qwen"))).toEqual(["q1", "q2"]);
  });
});
