// The sizing dialogs' forms, rendered to HTML: the fields each action asks for, a refusal shown
// in the page's language, what sizing said after a change, and the input each sends.
import type { ModelView, ResizeResultView } from "@llmgw/api";
import { TRPCClientError } from "@trpc/client";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/create-i18n";
import type { Language } from "../../lib/preferences";
import {
  contextInput,
  draftOf,
  gpusInput,
  resourcesInput,
  SizingForm,
  type SizingAction,
  type SizingFormProps,
} from "./sizing-form";

const model: ModelView = {
  name: "chat",
  definition: {
    name: "chat",
    profiles: [{ name: "h100", engine: "vllm", gpus: 1, context_length: 8192, cpu_cores: 4 }],
  },
  revision: 3,
  state: "ready",
  replicasDesired: 2,
  replicasReady: 2,
  replicasTotal: 2,
  consecutiveFailures: 0,
  isParked: false,
  lastError: null,
  unplaceableReasons: [],
  fallbacks: [],
  owner: null,
  updatedAt: "2026-12-02T10:00:00.000Z",
  updatedBy: "admin",
  externalKey: null,
};

const ignore = () => undefined;

function render(action: SizingAction, extra: Partial<SizingFormProps>, language: Language = "en") {
  const props: SizingFormProps = {
    action,
    model,
    draft: draftOf(model),
    onDraft: ignore,
    send: { gpus: ignore, context: ignore, resources: ignore },
    onClose: ignore,
    error: null,
    isPending: false,
    ...extra,
  };
  const i18n = createI18n(language);
  return renderToStaticMarkup(
    createElement(I18nextProvider, { i18n }, createElement(SizingForm, props)),
  );
}

function refusal(code: string, params: Record<string, string | number>) {
  return TRPCClientError.from({
    error: {
      message: "the English sentence",
      code: -32000,
      data: { code: "BAD_REQUEST", refusal: { code, params } },
    },
  });
}

describe("the sizing dialogs", () => {
  it("ask each action for its own fields, starting from the profile's values", () => {
    const gpus = render("gpus", {});
    expect(gpus).toContain('data-testid="sizing-gpus"');
    expect(gpus).toContain('value="1"');
    expect(gpus).toContain('data-testid="sizing-in-place"');
    const context = render("context", {});
    expect(context).toContain('value="8192"');
    expect(context).toContain('data-testid="sizing-slots"');
    const resources = render("resources", {});
    expect(resources).toContain('data-testid="sizing-memoryGb"');
    expect(resources).not.toContain('data-testid="sizing-in-place"');
  });

  it("show a refusal in Turkish, naming the counts that split the heads", () => {
    const error = refusal("sizing.split_invalid", {
      cards: 3,
      attentionHeads: 32,
      kvHeads: 8,
      validCounts: "1, 2, 4, 8",
    });
    const html = render("gpus", { error }, "tr");
    expect(html).toContain("3 kart, 32 dikkat başlığını ve 8 KV başlığını eşit bölemez");
    expect(html).not.toContain("the English sentence");
  });

  it("say how the replicas restart after a change", () => {
    const result: ResizeResultView = {
      model: { ...model, revision: 4 },
      changed: true,
      notes: [{ code: "sizing.restart_surge", params: { model: "chat", replicas: 2 }, text: "x" }],
    };
    const html = render("gpus", { result });
    expect(html).toContain("Stored as revision 4.");
    expect(html).toContain("2 replica(s) restart one at a time");
  });

  it("send numbers, with slots only when given", () => {
    const draft = { ...draftOf(model), gpus: "4", slots: "", inPlace: true };
    expect(gpusInput("chat", draft)).toEqual({ name: "chat", gpus: 4, inPlace: true });
    expect(contextInput("chat", draft)).toEqual({
      name: "chat",
      contextTokens: 8192,
      inPlace: true,
    });
    const sized = { ...draft, cpuCores: "2", memoryGb: "8" };
    expect(resourcesInput("chat", sized)).toMatchObject({ cpuCores: 2, memoryGb: 8 });
  });
});
