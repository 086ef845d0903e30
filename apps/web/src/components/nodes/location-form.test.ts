// The Location dialog's form, rendered to HTML: the stored values as fields and the agent's as
// placeholders, a refusal in the page's language, and the labels it sends (an emptied field the
// store held is removed, one it never held is left alone).
import type { NodeView } from "@llmgw/api";
import { TRPCClientError } from "@trpc/client";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/create-i18n";
import { nodeFixture } from "../../lib/fixtures";
import type { Language } from "../../lib/preferences";
import {
  LocationForm,
  locationDraftOf,
  locationInput,
  type LocationFormProps,
} from "./location-form";
import { cordonChoices } from "./node-actions";

const node: NodeView = nodeFixture({
  id: "n1",
  name: "gpu-a",
  labels: { "llmgw.io/site": "dc1", "llmgw.io/rack": "r12" },
  storedLabels: { "llmgw.io/rack": "r12" },
});

function render(extra: Partial<LocationFormProps>, language: Language = "en"): string {
  const props: LocationFormProps = {
    node,
    draft: locationDraftOf(node),
    onDraft: () => undefined,
    send: () => undefined,
    onClose: () => undefined,
    error: null,
    isPending: false,
    ...extra,
  };
  return renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n: createI18n(language) },
      createElement(LocationForm, props),
    ),
  );
}

function refusal(code: string, params: Record<string, string>) {
  return TRPCClientError.from({
    error: {
      message: "the English sentence",
      code: -32000,
      data: { code: "NOT_FOUND", refusal: { code, params } },
    },
  });
}

describe("the Location dialog", () => {
  it("starts from the stored values, with the agent's as placeholders", () => {
    const html = render({});
    expect(html).toContain("Location of gpu-a");
    for (const kind of ["site", "room", "row", "rack", "pdu"])
      expect(html).toContain(`data-testid="location-${kind}"`);
    expect(html).toContain('placeholder="r12" data-testid="location-rack" value="r12"');
    expect(html).toContain('placeholder="dc1" data-testid="location-site" value=""');
  });

  it("shows a refusal in Turkish", () => {
    const html = render({ error: refusal("node.not_found", { node: "gpu-a" }) }, "tr");
    expect(html).toContain("gpu-a konumu");
    expect(html).toContain("“gpu-a” düğümü bilinmiyor");
    expect(html).not.toContain("the English sentence");
  });

  it("sets the filled fields and removes only the stored ones emptied", () => {
    const draft = { ...locationDraftOf(node), rack: " ", pdu: "p7 ", site: "" };
    expect(locationInput(node, draft)).toEqual({
      id: "n1",
      set: { "llmgw.io/pdu": "p7" },
      remove: ["llmgw.io/rack"],
    });
  });
});

describe("the cordon buttons", () => {
  it("offer the states the node is not in", () => {
    expect(cordonChoices(null)).toEqual(["cordoned", "draining"]);
    expect(cordonChoices("cordoned")).toEqual(["draining", null]);
    expect(cordonChoices("draining")).toEqual(["cordoned", null]);
  });
});
