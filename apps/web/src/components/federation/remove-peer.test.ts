// Removing a peer from the console: a Remove button on each peer's row, and the question asked
// before it goes (its models no longer offered, its key deleted), in the page's language.
import type { PeerView } from "@llmgw/api";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/create-i18n";
import type { Language } from "../../lib/preferences";
import { DataGrid } from "../ui/data-grid";
import { usePeerColumns } from "./federation-page";
import { RemovePeerDialog } from "./remove-peer-dialog";

const ignore = () => undefined;

const peer: PeerView = {
  name: "b",
  url: "http://10.0.4.12:8080",
  sendsTags: false,
  state: "up",
  latencyMs: 12,
  lastError: null,
  models: [{ name: "b/llama-70b", isWithdrawn: false }],
  syncedAt: null,
  createdBy: "admin",
};

function PeersTable() {
  const columns = usePeerColumns(ignore);
  return createElement(DataGrid<PeerView>, {
    columns,
    rows: [peer],
    rowKey: (p: PeerView) => p.name,
    testId: "federation-table",
  });
}

function render(language: Language, element: ReturnType<typeof createElement>): string {
  return renderToStaticMarkup(
    createElement(I18nextProvider, { i18n: createI18n(language) }, element),
  );
}

describe("removing a peer cluster", () => {
  it("offers Remove on each peer's row", () => {
    expect(render("en", createElement(PeersTable))).toMatch(
      /data-testid="federation-remove"[^>]*>Remove</,
    );
    expect(render("tr", createElement(PeersTable))).toMatch(
      /data-testid="federation-remove"[^>]*>Kaldır</,
    );
  });

  it("asks first, saying what removing does, in English and Turkish", () => {
    const props = { name: "b", isBusy: false, onConfirm: ignore, onCancel: ignore };
    const en = render("en", createElement(RemovePeerDialog, props));
    expect(en).toContain("Remove peer b?");
    expect(en).toContain("its sealed key is deleted");
    expect(en).toContain('data-testid="federation-remove-confirm"');
    const tr = render("tr", createElement(RemovePeerDialog, props));
    expect(tr).toContain("b eşi kaldırılsın mı?");
    expect(tr).toContain("mühürlü anahtarı silinir");
  });
});
