import { describe, expect, it } from "vitest";
import { parseModelDefinition } from "../catalog/model-definition";
import { knownConfigFor } from "../explore/known-configs";
import { describeConfig } from "../sizing/describe";
import { sizeAtServe } from "./serve";

const described = describeConfig(knownConfigFor("meta-llama/Llama-3.1-8B-Instruct"));
if (!described.ok) throw new Error(described.errors.join("; "));
const llama = described.description;

function profile(context?: number) {
  const parsed = parseModelDefinition({
    name: "llama",
    source: "meta-llama/Llama-3.1-8B-Instruct",
    profiles: [
      {
        name: "gpu",
        engine: "vllm",
        gpu: "L4-24G",
        ...(context === undefined ? {} : { context_length: context }),
      },
    ],
  });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  const [first] = parsed.model.profiles;
  if (!first) throw new Error("no profile");
  return first;
}

describe("sizeAtServe", () => {
  it("shrinks the trained context to what a 24 GB card holds beside the weights, saying so", () => {
    const sizing = sizeAtServe(profile(), llama, 24, 1);
    expect(sizing.kind).toBe("shrunk");
    if (sizing.kind !== "shrunk") return;
    expect(sizing.askedTokens).toBe(131_072);
    expect(sizing.contextTokens).toBeLessThan(131_072);
    expect(sizing.contextTokens % 256).toBe(0);
    expect(sizing.note.code).toBe("sizing.context_shrunk");
  });

  it("starts as asked when the context fits", () => {
    expect(sizeAtServe(profile(8_192), llama, 80, 1)).toEqual({ kind: "as-asked" });
  });

  it("refuses weights that do not fit at all, naming the cards that would", () => {
    const sizing = sizeAtServe(profile(8_192), llama, 16, 1);
    expect(sizing.kind === "refused" && sizing.note.code).toBe("sizing.weights_do_not_fit");
  });

  it("starts as asked when the model or the cards are unknown", () => {
    expect(sizeAtServe(profile(), undefined, 24, 1)).toEqual({ kind: "as-asked" });
    expect(sizeAtServe(profile(), llama, undefined, 1)).toEqual({ kind: "as-asked" });
  });
});
