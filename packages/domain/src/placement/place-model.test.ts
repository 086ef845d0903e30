import { describe, expect, it } from "vitest";
import { findPreset } from "../catalog/presets";
import { parseModelDefinition, type ModelDefinition } from "../catalog/model-definition";
import { placeModelReplicas } from "./place-model";
import { cards, node } from "./test-fixtures";

function preset(name: string): ModelDefinition {
  const parsed = parseModelDefinition(findPreset(name));
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return parsed.model;
}

describe("placeModelReplicas", () => {
  const qwen = preset("qwen2.5-0.5b-instruct");

  it("uses the first profile that fits, then falls back to the next", () => {
    const nodes = [node("gpu", { cards: cards(1, "L40S", 48, 8.9) }), node("cpu", { cards: [] })];
    const results = placeModelReplicas({ nodes, replicas: [] }, [
      { model: qwen, replicaId: "qwen/r1" },
      { model: qwen, replicaId: "qwen/r2" },
    ]);
    expect(results.map((r) => r.ok && [r.profile, r.shards[0]?.nodeId, r.gpuClass])).toEqual([
      ["cuda", "gpu", "L40S"],
      ["cpu", "cpu", undefined],
    ]);
  });

  it("keeps every profile's reasons when none fits", () => {
    const nodes = [node("down", { isReachable: false })];
    const [result] = placeModelReplicas({ nodes, replicas: [] }, [
      { model: qwen, replicaId: "qwen/r1" },
    ]);
    expect(result?.ok).toBe(false);
    if (!result || result.ok) return;
    expect(result.profiles.map((p) => p.profile)).toEqual(["cuda", "cpu"]);
    expect(result.profiles[1]?.rejections[0]?.reasons[0]).toMatch(/^is unreachable/);
    expect(result.summary).toContain('profile "cuda"');
    expect(result.summary).toContain('profile "cpu"');
  });

  it("puts a judge on a node labelled llmgw.role=judge when there is room there, elsewhere otherwise", () => {
    const judge = node("judge", {
      labels: { "llmgw.role": "judge" },
      cards: cards(1, "L40S", 48, 8.9),
    });
    const plain = node("plain", { cards: cards(1, "L40S", 48, 8.9) });
    const ask = (replicaId: string, preferredRole?: string) => ({
      model: qwen,
      replicaId,
      preferredRole,
    });
    // The plain node comes first in the input, so without the preference it would win the tie.
    const results = placeModelReplicas({ nodes: [plain, judge], replicas: [] }, [
      ask("qwen/r1", "judge"),
      ask("qwen/r2", "judge"),
    ]);
    expect(results.map((r) => r.ok && [r.profile, r.shards[0]?.nodeId])).toEqual([
      ["cuda", "judge"],
      ["cuda", "plain"],
    ]);
    // Without the preference a role node takes only profiles asking for its role.
    const [unpreferred] = placeModelReplicas({ nodes: [judge], replicas: [] }, [ask("qwen/r3")]);
    expect(unpreferred?.ok && unpreferred.shards[0]?.nodeId).not.toBe("judge");
  });
});
