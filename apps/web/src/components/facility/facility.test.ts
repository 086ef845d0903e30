// The Facility page's table and Hold dialog, rendered to HTML: each domain with its nodes, cards,
// power and hold, a hold on a domain no node names still listed, Hold and Release offered to
// admins only, and the Hold form's drain box and refusal in the page's language.
import type { FacilityView } from "@llmgw/api";
import { TRPCClientError } from "@trpc/client";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/create-i18n";
import type { Language } from "../../lib/preferences";
import { FacilityTable, facilityRows } from "./facility-table";
import { HoldForm, holdInput } from "./hold-form";

const ignore = () => undefined;
const hold = {
  domain: "rack=r12",
  isDraining: true,
  heldBy: "ada",
  heldAt: "2026-12-02T10:00:00.000Z",
};
const view: FacilityView = {
  domains: [
    {
      domain: "rack=r12",
      kind: "rack",
      value: "r12",
      nodes: ["gpu-1", "gpu-2"],
      cards: 16,
      powerWatts: 5400,
      hold,
    },
    {
      domain: "site=dc1",
      kind: "site",
      value: "dc1",
      nodes: ["gpu-1"],
      cards: 8,
      powerWatts: null,
      hold: null,
    },
  ],
  holds: [hold, { ...hold, domain: "row=7", isDraining: false }],
};

function html(element: ReactElement, language: Language = "en"): string {
  return renderToStaticMarkup(
    createElement(I18nextProvider, { i18n: createI18n(language) }, element),
  );
}

function table(isAdmin: boolean, language: Language = "en"): string {
  const props = { view, isAdmin, isBusy: false, onHold: ignore, onRelease: ignore };
  return html(createElement(FacilityTable, props), language);
}

describe("the Facility table", () => {
  it("lists every domain, then the holds on domains no node names", () => {
    expect(facilityRows(view).map((row) => row.domain)).toEqual(["rack=r12", "site=dc1", "row=7"]);
    const page = table(true);
    expect(page).toContain("gpu-1, gpu-2");
    expect(page).toContain("5,400 W");
    expect(page).toContain("held by ada, draining");
    expect(page.match(/data-testid="facility-release"/g)).toHaveLength(2);
    expect(page.match(/data-testid="facility-hold-open"/g)).toHaveLength(1);
    expect(page).not.toMatch(/<button[^>]*disabled/);
  });

  it("disables Hold and Release for someone not an admin, in Turkish", () => {
    const page = table(false, "tr");
    expect(page).toContain("ada tutuyor, boşaltılıyor");
    expect(page.match(/<button[^>]*disabled=""/g)).toHaveLength(3);
    expect(page).toContain("Bir alanı yalnızca yönetici tutabilir veya bırakabilir");
  });
});

describe("the Hold dialog", () => {
  const form = (error: unknown, language: Language) =>
    html(
      createElement(HoldForm, {
        draft: { domain: "rack=r12", drain: true },
        onDraft: ignore,
        send: ignore,
        onClose: ignore,
        error,
        isPending: false,
      }),
      language,
    );

  it("starts from the row's domain, with the drain box", () => {
    const page = form(null, "en");
    expect(page).toContain('value="rack=r12"');
    expect(page).toMatch(/<input type="checkbox"[^>]*data-testid="hold-drain"[^>]*checked=""/);
    expect(holdInput({ domain: " rack=r12 ", drain: true })).toEqual({
      domain: "rack=r12",
      drain: true,
    });
  });

  it("shows a refusal in Turkish", () => {
    const error = TRPCClientError.from({
      error: {
        message: "the English sentence",
        code: -32000,
        data: {
          code: "NOT_FOUND",
          refusal: { code: "facility.not_held", params: { domain: "rack=r9" } },
        },
      },
    });
    const page = form(error, "tr");
    expect(page).toContain("rack=r9 tutulmuyor");
    expect(page).not.toContain("the English sentence");
  });
});
