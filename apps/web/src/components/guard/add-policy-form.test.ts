// The "Add policy" form rendered to HTML: its fields in the page's language (every stage and check
// offered), what was typed read into the control plane's input, and a refusal shown in Turkish
// from its code rather than the server's English sentence.
import { guardPolicyInputSchema } from "@llmgw/api/schemas";
import { TRPCClientError } from "@trpc/client";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/create-i18n";
import type { Language } from "../../lib/preferences";
import { AddPolicyForm, EMPTY_POLICY_DRAFT, policyInput } from "./add-policy-form";

const ignore = () => undefined;

function form(error: unknown, language: Language): string {
  return renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n: createI18n(language) },
      createElement(AddPolicyForm, { send: ignore, onClose: ignore, error, isPending: false }),
    ),
  );
}

describe("the Add policy form", () => {
  it("offers every stage and check, the judge, its failure mode and budget", () => {
    const page = form(null, "en");
    expect(page).toContain("Add a guard policy");
    for (const stage of ["prompt", "answer", "tool_args", "tool_result"])
      expect(page).toContain(`data-testid="guard-add-stage-${stage}"`);
    for (const check of ["injection", "pii"])
      expect(page).toContain(`data-testid="guard-add-check-${check}"`);
    expect(page).toContain("Refuse the request (closed)");
    expect(page).toMatch(
      /data-testid="guard-add-budget"[^>]*value="2000"|value="2000"[^>]*data-testid="guard-add-budget"/,
    );
    const tr = form(null, "tr");
    expect(tr).toContain("Koruma politikası ekle");
    expect(tr).toContain("İsteği reddet (kapalı)");
  });

  it("reads what was typed into the control plane's input", () => {
    const input = policyInput({
      name: " tickets ",
      appliesTo: "team:support, key:k-1  user:ada",
      stages: ["tool_result", "prompt"],
      checks: ["pii", "injection"],
      judgeModel: " judge-1b ",
      fail: "open",
      budgetMs: " 1500 ",
    });
    expect(input).toEqual({
      name: "tickets",
      appliesTo: ["team:support", "key:k-1", "user:ada"],
      stages: ["prompt", "tool_result"],
      checks: ["injection", "pii"],
      judgeModel: "judge-1b",
      fail: "open",
      budgetMs: 1500,
    });
    expect(guardPolicyInputSchema.safeParse(input).success).toBe(true);
    expect(policyInput({ ...EMPTY_POLICY_DRAFT, judgeModel: "  " }).judgeModel).toBeNull();
  });

  it("leaves an empty form for the schema to refuse, naming what is missing", () => {
    const checked = guardPolicyInputSchema.safeParse(policyInput(EMPTY_POLICY_DRAFT));
    expect(checked.success).toBe(false);
    const fields = checked.error?.issues.map((issue) => issue.path[0]);
    expect(fields).toEqual(expect.arrayContaining(["name", "appliesTo", "stages", "checks"]));
  });

  it("shows a refusal in Turkish", () => {
    const error = TRPCClientError.from({
      error: {
        message: "the English sentence",
        code: -32000,
        data: {
          code: "BAD_REQUEST",
          refusal: { code: "guard.judge_not_in_catalog", params: { model: "judge-9b" } },
        },
      },
    });
    const page = form(error, "tr");
    expect(page).toContain("hakem modeli &quot;judge-9b&quot; katalogda yok");
    expect(page).not.toContain("the English sentence");
  });
});
