// The "Add peer" form rendered to HTML: its fields in the page's language, the peer's key in a
// password box, the typed values trimmed into the control plane's input, and a refusal shown in
// Turkish from its code rather than the server's English sentence.
import { TRPCClientError } from "@trpc/client";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/create-i18n";
import type { Language } from "../../lib/preferences";
import { AddPeerForm, peerInput } from "./add-peer-form";

const ignore = () => undefined;

function form(error: unknown, language: Language): string {
  return renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n: createI18n(language) },
      createElement(AddPeerForm, { send: ignore, onClose: ignore, error, isPending: false }),
    ),
  );
}

describe("the Add peer form", () => {
  it("asks for the name, address and key, the key in a password box", () => {
    const page = form(null, "en");
    expect(page).toContain("Add a peer cluster");
    expect(page).toMatch(/<input type="password"[^>]*data-testid="federation-add-key"/);
    expect(page).toContain('data-testid="federation-add-send-tags"');
    expect(form(null, "tr")).toContain("Eş küme ekle");
  });

  it("trims what was typed into the control plane's input", () => {
    expect(
      peerInput({ name: " b ", url: " http://10.0.4.12:8080 ", key: " k-1 ", sendsTags: true }),
    ).toEqual({ name: "b", url: "http://10.0.4.12:8080", key: "k-1", sendsTags: true });
  });

  it("shows a refusal in Turkish", () => {
    const error = TRPCClientError.from({
      error: {
        message: "the English sentence",
        code: -32000,
        data: {
          code: "BAD_REQUEST",
          refusal: {
            code: "federation.url_credentials",
            params: { url: "http://10.0.4.13:8080/" },
          },
        },
      },
    });
    const page = form(error, "tr");
    expect(page).toContain("http://10.0.4.13:8080/ eş küme adresi kullanıcı adı veya parola");
    expect(page).not.toContain("the English sentence");
  });
});
