// The nodes table rendered to HTML: each node's location as the CLI prints it, and a cordoned or
// draining node marked beside its state, in the page's language.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/create-i18n";
import { nodeSummaryFixture } from "../../lib/fixtures";
import type { Language } from "../../lib/preferences";
import { NodesTable } from "./nodes-table";

const nodes = [
  nodeSummaryFixture({
    id: "a",
    name: "gpu-a",
    labels: { "llmgw.io/site": "dc1", "llmgw.io/rack": "r12", "llmgw.io/pdu": "p7" },
    cordon: "draining",
  }),
  nodeSummaryFixture({ id: "b", name: "gpu-b" }),
];

function render(language: Language, hiddenIds: string[] = []): string {
  const i18n = createI18n(language);
  const table = createElement(NodesTable, {
    nodes,
    window: { total: nodes.length, offset: 0, onRange: () => undefined },
    sort: { key: "name", direction: "asc" },
    onSort: () => undefined,
    navigation: {
      selectedId: null,
      onSelect: () => undefined,
      onOpen: () => undefined,
      onOpenInWindow: () => undefined,
    },
    columnChoice: { hiddenIds, onToggle: () => undefined },
    empty: null,
  });
  return renderToStaticMarkup(createElement(I18nextProvider, { i18n }, table));
}

describe("NodesTable location and cordon", () => {
  it("shows the location widest first and marks the draining node only", () => {
    const html = render("en");
    expect(html).toContain(">Location<");
    expect(html).toContain("dc1/-/-/r12/p7");
    expect(html.match(/data-testid="node-cordon"/g)).toHaveLength(1);
    expect(html).toContain('data-cordon="draining">draining<');
  });

  it("gives every row a menu named for its node", () => {
    const html = render("en");
    expect(html.match(/data-testid="row-menu"/g)).toHaveLength(2);
    expect(html).toContain('aria-label="Actions for gpu-b"');
    expect(render("tr")).toContain('aria-label="gpu-b için işlemler"');
  });

  it("leaves out the columns the person hid, and offers only the ones that may be hidden", () => {
    const html = render("en", ["location", "name", "menu"]);
    expect(html).not.toMatch(/<th[^>]*>Location</);
    expect(html).not.toContain("dc1/-/-/r12/p7");
    // A node's name and its menu stay, whatever an older desk says.
    expect(html).toMatch(/<th[^>]*>(<button[^>]*>)?Name</);
    expect(html.match(/data-testid="row-menu"/g)).toHaveLength(2);
    expect(html).toContain('data-testid="column-toggle-location"');
    expect(html).not.toContain('data-testid="column-toggle-name"');
    expect(html).not.toContain('data-testid="column-toggle-menu"');
    expect(render("en")).toMatch(/<th[^>]*>Location</);
  });

  it("speaks Turkish", () => {
    const html = render("tr");
    expect(html).toContain(">Konum<");
    expect(html).toContain('data-cordon="draining">boşaltılıyor<');
  });
});
