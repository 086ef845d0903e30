"use client";
// A node's location as the store holds it: five fields, widest first. What the agent reports shows
// as each field's placeholder; a value typed here is stored over it, and a field emptied that the
// store held removes the stored value, so the agent's shows again. Kept apart from the request so a
// test renders it with a refusal in either language.
import type { NodeView } from "@llmgw/api";
import { nodeLabelInputSchema } from "@llmgw/api/schemas";
import { DOMAIN_KINDS, domainLabel, type DomainKind } from "@llmgw/domain";
import type { z } from "zod";
import { useTranslation } from "react-i18next";
import { DialogForm } from "../ui/dialog-form";
import { FormField } from "../ui/form-field";

export type LocationDraft = Record<DomainKind, string>;
export type NodeLabelInput = z.input<typeof nodeLabelInputSchema>;

/** The stored values, as the fields start: the agent's own are placeholders, not values. */
export function locationDraftOf(node: NodeView): LocationDraft {
  const draft = {} as LocationDraft;
  for (const kind of DOMAIN_KINDS) draft[kind] = node.storedLabels[domainLabel(kind)] ?? "";
  return draft;
}

/** What to send: every filled field set, every emptied field the store held removed. */
export function locationInput(node: NodeView, draft: LocationDraft): NodeLabelInput {
  const set: Record<string, string> = {};
  const remove: string[] = [];
  for (const kind of DOMAIN_KINDS) {
    const key = domainLabel(kind);
    const value = draft[kind].trim();
    if (value !== "") set[key] = value;
    else if (node.storedLabels[key] !== undefined) remove.push(key);
  }
  return { id: node.id, set, remove };
}

export interface LocationFormProps {
  node: NodeView;
  draft: LocationDraft;
  onDraft(draft: LocationDraft): void;
  send(input: NodeLabelInput): void;
  onClose(): void;
  error: unknown;
  isPending: boolean;
}

export function LocationForm({ node, draft, onDraft, send, onClose, ...state }: LocationFormProps) {
  const { t } = useTranslation("nodes");
  return (
    <DialogForm
      testId="location-dialog"
      className="dialog-confirm"
      title={t("location.title", { name: node.name })}
      onClose={onClose}
      intro={<p className="muted">{t("location.hint")}</p>}
      form={{
        schema: nodeLabelInputSchema,
        readInput: () => locationInput(node, draft),
        onSubmit: send,
        error: state.error,
        errorTestId: "location-error",
        errorClassName: "bad-text",
        actions: {
          submitLabel: t("location.save"),
          submitTestId: "location-save",
          isPending: state.isPending,
          cancelLabel: t("location.cancel"),
          onCancel: onClose,
        },
      }}
    >
      {DOMAIN_KINDS.map((kind) => (
        <FormField key={kind} label={t(`location.fields.${kind}`)}>
          <input
            value={draft[kind]}
            placeholder={node.labels[domainLabel(kind)] ?? ""}
            onChange={(event) => onDraft({ ...draft, [kind]: event.target.value })}
            data-testid={`location-${kind}`}
          />
        </FormField>
      ))}
    </DialogForm>
  );
}
