import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { createI18n } from "../i18n/create-i18n";
import {
  describeError,
  isPermanentError,
  isUnauthorized,
  translateRefusal,
  trpcErrorDetails,
} from "./errors";

function trpcError(code: string, message: string, extra: Record<string, unknown> = {}) {
  return TRPCClientError.from({ error: { message, code: -32000, data: { code, ...extra } } });
}

const unreachable = trpcError("BAD_GATEWAY", "the console cannot reach…", {
  apiUrl: "http://cp:8080",
});
const wrongPassword = trpcError("UNAUTHORIZED", "wrong username or password");

describe("describeError", () => {
  const en = createI18n("en").getFixedT("en", "common");
  const tr = createI18n("tr").getFixedT("tr", "common");

  it("translates an unreachable control plane and names its URL", () => {
    expect(describeError(unreachable, en)).toContain(
      "cannot reach the control plane at http://cp:8080",
    );
    expect(describeError(unreachable, tr)).toContain(
      "http://cp:8080 adresindeki kontrol düzlemine ulaşamıyor",
    );
  });

  it("translates wrong credentials only on the sign-in form", () => {
    expect(describeError(wrongPassword, tr, { isSignIn: true })).toBe(
      "Kullanıcı adı veya parola hatalı.",
    );
    expect(describeError(wrongPassword, en)).toBe(
      "The control plane answered: wrong username or password",
    );
  });

  it("blames the console itself when no tRPC answer came back", () => {
    const networkFailure = TRPCClientError.from(new TypeError("Failed to fetch"));
    expect(describeError(networkFailure, en)).toMatch(/console is not answering/);
  });

  it("classifies errors that retrying cannot fix", () => {
    expect(isUnauthorized(wrongPassword)).toBe(true);
    expect(isPermanentError(wrongPassword)).toBe(true);
    expect(isPermanentError(unreachable)).toBe(false);
    expect(isUnauthorized(new Error("x"))).toBe(false);
  });
});

describe("refusals", () => {
  const en = createI18n("en").getFixedT("en", "common");
  const tr = createI18n("tr").getFixedT("tr", "common");
  const duplicateGroup = trpcError("CONFLICT", 'a group named "gpu-ops" exists already', {
    refusal: { code: "group.exists", params: { name: "gpu-ops" } },
  });

  it("says a refusal in the page's language with the names the server sent", () => {
    expect(describeError(duplicateGroup, tr)).toBe(
      "Kontrol düzleminin yanıtı: “gpu-ops” adlı bir grup zaten var.",
    );
    expect(describeError(duplicateGroup, en)).toBe(
      'The control plane answered: a group named "gpu-ops" exists already',
    );
  });

  it("falls back to the server's English sentence for a code this console does not know", () => {
    const newer = trpcError("CONFLICT", "something only a newer server says", {
      refusal: { code: "future.thing", params: {} },
    });
    expect(translateRefusal(newer, tr)).toBeNull();
    expect(describeError(newer, tr)).toBe(
      "Kontrol düzleminin yanıtı: something only a newer server says",
    );
  });

  it("keeps the English sentence when a parameter is missing or not plain text", () => {
    const odd = trpcError("NOT_FOUND", 'model "x" is not in the catalog', {
      refusal: { code: "model.not_found", params: { name: { toString: "x" } } },
    });
    expect(translateRefusal(odd, tr)).toBeNull();
    expect(describeError(odd, tr)).toBe(
      'Kontrol düzleminin yanıtı: model "x" is not in the catalog',
    );
  });
});

describe("trpcErrorDetails", () => {
  it("returns the refusal lines and nothing for errors without them", () => {
    const refused = trpcError("BAD_REQUEST", "definition refused", {
      details: ["name: bad", "profiles: give at least one profile"],
    });
    expect(trpcErrorDetails(refused)).toEqual(["name: bad", "profiles: give at least one profile"]);
    expect(trpcErrorDetails(wrongPassword)).toEqual([]);
    expect(trpcErrorDetails(new Error("plain"))).toEqual([]);
  });
});
