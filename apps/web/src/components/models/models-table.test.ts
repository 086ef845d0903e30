// The models table rendered to HTML: each model's actions start with its row menu (Open in new
// window), and the columns a person hid are left out, but never a model's name or its actions.
import type { ModelView } from "@llmgw/api";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/create-i18n";
import type { Language } from "../../lib/preferences";
import { ModelsTable, type ModelActions } from "./models-table";

function model(name: string): ModelView {
  return {
    ...{ name, definition: {}, revision: 1, state: "ready", replicasDesired: 1, replicasReady: 1 },
    ...{ replicasTotal: 1, consecutiveFailures: 0, isParked: false, lastError: null },
    ...{ unplaceableReasons: [], fallbacks: [], owner: null, externalKey: null },
    ...{ updatedAt: "2030-01-01T00:00:00.000Z", updatedBy: "admin" },
  };
}

const none = () => undefined;
const actions: ModelActions = {
  ...{ canWrite: true, canSize: false, busyName: null, onRetry: none, onRemove: none },
  ...{ onFallbacks: none, onOwner: none, onAdapters: none, onSizing: none },
};

function render(language: Language, hiddenIds: string[] = []): string {
  const i18n = createI18n(language);
  const table = createElement(ModelsTable, {
    models: [model("qwen-7b"), model("llama-8b")],
    sorting: { sort: { key: "ready", direction: "desc" }, onSort: none },
    empty: null,
    actions,
    navigation: { selectedId: "llama-8b", onSelect: none, onOpen: none, onOpenInWindow: none },
    columnChoice: { hiddenIds, onToggle: none },
  });
  return renderToStaticMarkup(createElement(I18nextProvider, { i18n }, table));
}

describe("ModelsTable", () => {
  it("gives every model a row menu named for it, and marks the selected row", () => {
    const html = render("en");
    expect(html.match(/data-testid="row-menu"/g)).toHaveLength(2);
    expect(html).toContain('aria-label="More for qwen-7b"');
    expect(render("tr")).toContain('aria-label="qwen-7b için diğer işlemler"');
    expect(html).toMatch(/data-model-name="llama-8b"[^>]*aria-selected="true"/);
    expect(html).toMatch(/data-model-name="qwen-7b"[^>]*aria-selected="false"/);
  });

  it("sorts by its columns, and says which way", () => {
    const html = render("en");
    expect(html).toMatch(/<th[^>]*aria-sort="descending"[^>]*>.*?Ready \/ desired/);
    expect(html).toContain('data-testid="sort-updated"');
    expect(html).not.toContain('data-testid="sort-actions"');
  });

  it("leaves out hidden columns, never the name or the actions", () => {
    const html = render("en", ["owner", "name", "actions"]);
    expect(html).not.toMatch(/<th[^>]*>(<button[^>]*>)?Owner</);
    expect(html).toMatch(/<th[^>]*><button[^>]*>Name</);
    expect(html).toMatch(/<th[^>]*>Actions</);
    expect(html).toContain('data-testid="column-toggle-owner"');
    expect(html).not.toContain('data-testid="column-toggle-actions"');
  });
});
