import { describe, expect, it } from "vitest";
import { diffPeerModels } from "./sync-diff";

const live = (name: string) => ({ name, isWithdrawn: false });

describe("keeping a peer's models in step", () => {
  it("adds what the peer offers first", () => {
    expect(diffPeerModels([], ["b", "a", "a"], () => false)).toEqual({
      models: [live("a"), live("b")],
      added: ["a", "b"],
      withdrawn: [],
      removed: [],
    });
  });

  it("drops a model the peer no longer offers and no fallback names", () => {
    const diff = diffPeerModels([live("a"), live("b")], ["a"], () => false);
    expect(diff.models).toEqual([live("a")]);
    expect(diff.removed).toEqual(["b"]);
  });

  it("keeps a model a fallback still names, withdrawn, and reports it withdrawn once", () => {
    const named = (name: string) => name === "b";
    const first = diffPeerModels([live("a"), live("b")], ["a"], named);
    expect(first.models).toEqual([live("a"), { name: "b", isWithdrawn: true }]);
    expect(first.withdrawn).toEqual(["b"]);
    const again = diffPeerModels(first.models, ["a"], named);
    expect(again.withdrawn).toEqual([]);
    expect(again.models).toEqual(first.models);
  });

  it("brings a withdrawn model back when the peer offers it again", () => {
    const diff = diffPeerModels([{ name: "b", isWithdrawn: true }], ["b"], () => true);
    expect(diff.models).toEqual([live("b")]);
    expect(diff.added).toEqual([]);
  });
});
