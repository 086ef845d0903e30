"use client";
// A plain JSON editor for a whole model definition. The browser only checks that the text is a JSON
// object; the control plane validates the definition with the one schema and its refusal lines
// are shown as they come, under the editor.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError, translateRefusal, trpcErrorDetails } from "../../lib/errors";
import { DEFINITION_TEMPLATE, parseDefinitionText } from "../../lib/models";
import { FormActions } from "../ui/submit-form";

interface DefinitionTabProps {
  canWrite: boolean;
  isPending: boolean;
  error: unknown;
  onSubmit(definition: Record<string, unknown>): void;
}

function useErrorLines(localProblem: string | null, error: unknown): string[] {
  const { t } = useTranslation();
  if (localProblem) return [localProblem];
  if (!error) return [];
  const details = trpcErrorDetails(error);
  return details.length ? details : [describeError(error, t)];
}

export function DefinitionTab({ canWrite, isPending, error, onSubmit }: DefinitionTabProps) {
  const { t } = useTranslation("models");
  const { t: tc } = useTranslation();
  const [text, setText] = useState(DEFINITION_TEMPLATE);
  const [localProblem, setLocalProblem] = useState<string | null>(null);
  const lines = useErrorLines(localProblem, error);
  const isServerRefusal = !localProblem && trpcErrorDetails(error).length > 0;

  const submit = () => {
    const parsed = parseDefinitionText(text);
    if (parsed.ok) {
      setLocalProblem(null);
      onSubmit(parsed.definition);
      return;
    }
    if (parsed.problem === "syntax") setLocalProblem(t("add.notJson", { message: parsed.message }));
    else if (parsed.problem === "notObject")
      setLocalProblem(t("add.notObject", { open: "{", close: "}" }));
    else setLocalProblem(t("add.emptyDefinition"));
  };

  return (
    <form
      className="tab-body definition-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor="definition-editor">{t("add.definitionLabel")}</label>
      <textarea
        id="definition-editor"
        className="definition-editor mono"
        spellCheck={false}
        value={text}
        onChange={(event) => setText(event.target.value)}
        aria-invalid={lines.length > 0}
        aria-describedby="definition-hint"
        data-testid="definition-editor"
      />
      <p id="definition-hint" className="muted">
        {t("add.definitionHint")}
      </p>
      {lines.length ? (
        <div className="form-error" role="alert" data-testid="definition-errors">
          {/* The refusal's own sentence, in the page's language, heads the lines naming each field. */}
          {isServerRefusal ? <div>{translateRefusal(error, tc) ?? t("add.refused")}</div> : null}
          <ul className="inline-errors">
            {lines.map((line) => (
              <li key={line} data-testid="definition-error">
                {line}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <FormActions
        submitLabel={t("add.submit")}
        pendingLabel={t("add.adding")}
        submitTestId="definition-submit"
        submitTitle={canWrite ? undefined : t("readOnly")}
        isPending={isPending}
        isSubmitDisabled={!canWrite}
        extra={
          <button type="button" className="control" onClick={() => setText(DEFINITION_TEMPLATE)}>
            {t("add.template")}
          </button>
        }
      />
    </form>
  );
}
