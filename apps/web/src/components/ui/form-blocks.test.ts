// The form building blocks, rendered to HTML: the aria wiring a screen reader depends on, the
// refusal shown in the page's language, the pending state, and the schema check before sending.
import { TRPCClientError } from "@trpc/client";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createI18n } from "../../i18n/create-i18n";
import type { Language } from "../../lib/preferences";
import { DialogForm } from "./dialog-form";
import { FormError } from "./form-error";
import { fieldDescriptionIds, FormField } from "./form-field";
import { FormActions } from "./submit-form";
import { validateInput } from "./validate-input";

function render(element: ReactElement, language: Language = "en"): HTMLString {
  const i18n = createI18n(language);
  return renderToStaticMarkup(createElement(I18nextProvider, { i18n }, element));
}
type HTMLString = string;

function refusal(code: string, params: Record<string, string>, details?: string[]) {
  return TRPCClientError.from({
    error: {
      message: "the English sentence",
      code: -32000,
      data: { code: "BAD_REQUEST", refusal: { code, params }, details },
    },
  });
}

function attribute(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(` ${name}="([^"]*)"`, "g"))].map((match) => match[1] ?? "");
}

describe("FormField", () => {
  it("wraps the control in its label and ties the hint and the error to it", () => {
    const html = render(
      createElement(FormField, {
        label: "Owner",
        hint: "user:name or team:name",
        error: "unknown owner",
        children: createElement("input", { "data-testid": "owner" }),
      }),
    );
    expect(html).toMatch(/^<label class="form-field"><span>Owner<\/span><input /);
    const [describedBy] = attribute(html, "aria-describedby");
    const [hintId, errorId] = attribute(html, "id");
    expect(describedBy).toBe(`${hintId} ${errorId}`);
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain(`<span id="${errorId}" class="form-error" role="alert">unknown owner`);
    expect(html).toContain(`<span id="${hintId}" class="muted form-hint">user:name`);
  });

  it("adds nothing to a control that has no hint and no error", () => {
    const html = render(
      createElement(FormField, {
        label: "Label",
        className: "field",
        children: createElement("input"),
      }),
    );
    expect(html).toBe('<label class="field"><span>Label</span><input/></label>');
  });

  it("names only the descriptions that are there", () => {
    expect(fieldDescriptionIds("f", false, true)).toEqual({
      hintId: undefined,
      errorId: "f-error",
      describedBy: "f-error",
    });
    expect(fieldDescriptionIds("f", true, false).describedBy).toBe("f-hint");
    expect(fieldDescriptionIds("f", false, false).describedBy).toBeUndefined();
  });
});

describe("FormError", () => {
  it("translates a refusal by its code into the page's language", () => {
    const error = refusal("auth.disabled", { username: "ayse" });
    const en = render(createElement(FormError, { error, testId: "e" }));
    const tr = render(createElement(FormError, { error, testId: "e" }), "tr");
    expect(en).toContain('role="alert"');
    expect(en).toContain('data-testid="e"');
    expect(en).toContain("ayse");
    expect(en).not.toContain("the English sentence");
    expect(tr).not.toBe(en);
  });

  it("lists a refusal's problems one per line under the heading", () => {
    const error = refusal("auth.disabled", { username: "a" }, ["rpm: too small", "models: empty"]);
    const html = render(
      createElement(FormError, { error, testId: "e", heading: "Refused", listsDetails: true }),
    );
    expect(html).toContain("<p>Refused</p><ul><li>rpm: too small</li><li>models: empty</li></ul>");
  });

  it("keeps to the refusal's sentence unless asked for its lines", () => {
    const error = refusal("auth.disabled", { username: "ayse" }, ["a line"]);
    const html = render(createElement(FormError, { error, testId: "e" }));
    expect(html).toContain("ayse");
    expect(html).not.toContain("a line");
  });

  it("shows nothing when nothing failed", () => {
    expect(render(createElement(FormError, { error: null, testId: "e" }))).toBe("");
  });
});

describe("FormActions", () => {
  const base = { submitLabel: "Add", submitTestId: "go", cancelLabel: "Cancel" };

  it("turns the submit button off and relabels it while the write is pending", () => {
    const html = render(
      createElement(FormActions, { ...base, pendingLabel: "Adding…", isPending: true }),
    );
    expect(html).toContain('disabled="" data-testid="go">Adding…</button>');
  });

  it("offers Cancel only with somewhere to go back to", () => {
    const idle = render(createElement(FormActions, { ...base, isPending: false }));
    expect(idle).not.toContain("Cancel");
    expect(idle).toContain('data-testid="go">Add</button>');
    const withCancel = render(
      createElement(FormActions, { ...base, isPending: false, onCancel: () => undefined }),
    );
    expect(withCancel).toContain('<button type="button" class="control">Cancel</button>');
  });
});

describe("DialogForm", () => {
  it("is a modal named by its heading, holding the form and the refusal", () => {
    const html = render(
      createElement(DialogForm<{ name: string }>, {
        children: createElement("input", { "data-testid": "thing-name" }),
        testId: "add-thing-dialog",
        title: "Add a thing",
        onClose: () => undefined,
        form: {
          testId: "add-thing-form",
          readInput: () => ({ name: "x" }),
          onSubmit: () => undefined,
          error: refusal("auth.disabled", { username: "bob" }),
          errorTestId: "add-thing-error",
          actions: { submitLabel: "Add", submitTestId: "add-thing-submit", isPending: false },
        },
      }),
    );
    const [labelledBy] = attribute(html, "aria-labelledby");
    expect(html).toContain('role="dialog" aria-modal="true"');
    expect(html).toContain(`<h2 id="${labelledBy}">Add a thing</h2>`);
    expect(html).toMatch(/<form data-testid="add-thing-form"><input data-testid="thing-name"\/>/);
    expect(html).toMatch(/data-testid="add-thing-error">[^<]*bob/);
  });
});

describe("validateInput", () => {
  const schema = z.object({ name: z.string().min(1), limits: z.array(z.number().int()) });

  it("passes what the schema accepts, as the schema returns it", () => {
    const trimmed = z.object({ name: z.string().trim() });
    expect(validateInput(trimmed, { name: " a " })).toEqual({ ok: true, input: { name: "a" } });
  });

  it("names each problem by the field it is about", () => {
    const result = validateInput(schema, { name: "", limits: [1, 2.5] });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^name: /);
    expect(problems[1]).toMatch(/^limits\.1: /);
  });

  it("sends anything when there is no schema", () => {
    expect(validateInput(undefined, { anything: 1 })).toEqual({ ok: true, input: { anything: 1 } });
  });
});
