// @vitest-environment happy-dom
// The explorer's answer rendered into a DOM in both languages: a row per GPU class and CPU node,
// the verdicts, and the sizing sentences translated by their codes.
import type { ExploreAnswer } from "@llmgw/api/schemas";
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { must } from "@llmgw/domain";
import { createI18n } from "../../i18n/create-i18n";
import type { Language } from "../../lib/preferences";
import { ExploreResults } from "./explore-results";

const note = (code: string, params: Record<string, string | number>, text = "english") => ({
  code,
  params,
  text,
});

const ANSWER: ExploreAnswer = {
  models: [
    {
      ...{ name: "llama-70b", origin: "config", architecture: "llama", parametersBillions: 70.6 },
      ...{ activeParametersBillions: 70.6, weightGb: 141.1, fitsNow: true },
      notes: [note("sizing.dtype_assumed", {})],
      gpu: [
        {
          ...{ gpuClass: "H100", cardMemoryGb: 85.52, bestNode: "gpu-1", cardsFreeOnBestNode: 2 },
          ...{
            cardsFree: 2,
            verdict: "shrunk",
            cards: 2,
            tensorParallel: 2,
            expertParallel: false,
          },
          ...{ contextTokens: 21_248, cardsForWeights: 2, cardsForFullContext: 4 },
          notes: [
            note("sizing.context_shrunk", {
              ...{ askedTokens: 131_072, grantedTokens: 21_248, slots: 1, cardsForFullContext: 4 },
            }),
          ],
        },
      ],
      cpu: [
        { node: "cpu-1", memoryGb: 256, fitsMemory: true, tokensPerSecond: 0.4 },
        { node: "cpu-2", memoryGb: 256, fitsMemory: true },
      ],
    },
    {
      ...{ name: "huge", origin: "preset", architecture: "qwen3_moe", parametersBillions: 235.1 },
      ...{ activeParametersBillions: 22.2, weightGb: 470.2, fitsNow: false, notes: [], cpu: [] },
      gpu: [],
      needs: note("sizing.explore_needs_cards", {
        ...{ cards: 8, gpuClass: "H100", cardGb: 85.52, node: "gpu-1", free: 2 },
      }),
    },
  ],
};

let root: Root | null = null;
let container: HTMLElement;

beforeAll(() => {
  Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  container.remove();
});

function render(answer: ExploreAnswer, language: Language = "en"): HTMLElement {
  container = document.createElement("div");
  document.body.append(container);
  const i18n = createI18n(language);
  act(() => {
    root = createRoot(container);
    root.render(
      createElement(I18nextProvider, { i18n }, createElement(ExploreResults, { answer })),
    );
  });
  return container;
}

const texts = (host: HTMLElement, selector: string) =>
  [...host.querySelectorAll(selector)].map((element) => element.textContent ?? "");

describe("ExploreResults", () => {
  it("shows a row per GPU class and CPU node with its verdict, and what a model needs", () => {
    const host = render(ANSWER);
    expect(texts(host, "[data-testid=explore-gpu-row]")).toEqual([
      "H100 on gpu-122-21248fits, context shrunk",
    ]);
    expect(texts(host, "[data-testid=explore-cpu-row]")).toEqual([
      "CPU on cpu-1----fits, about 0.4 tokens/s",
      "CPU on cpu-2----fits, speed unknown until measured",
    ]);
    expect(texts(host, "[data-testid=explore-needs]")).toEqual([
      "needs 8 H100 (85.52 GB) on one node; the best node, gpu-1, has 2 free",
    ]);
    expect(texts(host, "[data-testid=explore-fits]")).toEqual(["fits now", "fits nowhere now"]);
  });

  it("translates the sizing sentences by their codes, in Turkish too", () => {
    const notes = texts(render(ANSWER), "[data-testid=explore-notes] li");
    expect(notes[0]).toBe("config.json names no torch_dtype; bfloat16 assumed");
    expect(notes[1]).toMatch(/shrunk from 131072 to 21248 tokens .* 4 cards would hold it all/);
    act(() => root?.unmount());
    container.remove();
    const turkish = render(ANSWER, "tr");
    expect(texts(turkish, "[data-testid=explore-notes] li")[0]).toMatch(/bfloat16 varsayıldı/);
    expect(texts(turkish, "[data-testid=explore-cpu-row]")[1]).toMatch(/hız ölçülene kadar/);
  });

  it("falls back to the English sentence for a code the console does not know yet", () => {
    const answer: ExploreAnswer = {
      models: [
        {
          ...must(ANSWER.models[1], "the second model"),
          needs: note("sizing.new_code", {}, "the sentence"),
        },
      ],
    };
    expect(texts(render(answer), "[data-testid=explore-needs]")).toEqual(["the sentence"]);
  });

  it("says what to do when there is nothing to size", () => {
    expect(texts(render({ models: [] }), "[data-testid=explore-empty]")[0]).toMatch(
      /Paste a config\.json/,
    );
  });
});
