"use client";
// The three sizing actions' forms (cards, context, host resources), without the request: the
// dialog around them sends it. Kept apart so a test renders them with a refusal in either language.
import type {
  ModelView,
  ResizeResultView,
  SetModelContextInput,
  SetModelGpusInput,
  SetModelResourcesInput,
} from "@llmgw/api";
import {
  setModelContextInputSchema,
  setModelGpusInputSchema,
  setModelResourcesInputSchema,
} from "@llmgw/api/schemas";
import { useTranslation } from "react-i18next";
import { DialogForm } from "../ui/dialog-form";
import { FormField } from "../ui/form-field";

export const SIZING_ACTIONS = ["gpus", "context", "resources"] as const;
export type SizingAction = (typeof SIZING_ACTIONS)[number];

export interface SizingDraft {
  gpus: string;
  contextTokens: string;
  slots: string;
  cpuCores: string;
  memoryGb: string;
  inPlace: boolean;
}

/** The first profile's current values, as the fields start. */
export function draftOf(model: ModelView): SizingDraft {
  const profiles = model.definition.profiles;
  const first = (Array.isArray(profiles) ? profiles[0] : undefined) as
    Record<string, unknown> | undefined;
  const text = (value: unknown) => (typeof value === "number" ? String(value) : "");
  return {
    gpus: text(first?.gpus),
    contextTokens: text(first?.context_length),
    slots: text(first?.slots),
    cpuCores: text(first?.cpu_cores),
    memoryGb: text(first?.memory_gb),
    inPlace: false,
  };
}

const number = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));

export function gpusInput(name: string, draft: SizingDraft): SetModelGpusInput {
  return { name, gpus: number(draft.gpus), inPlace: draft.inPlace };
}

export function contextInput(name: string, draft: SizingDraft): SetModelContextInput {
  const slots = draft.slots.trim() === "" ? {} : { slots: number(draft.slots) };
  return { name, contextTokens: number(draft.contextTokens), ...slots, inPlace: draft.inPlace };
}

export function resourcesInput(name: string, draft: SizingDraft): SetModelResourcesInput {
  return {
    name,
    cpuCores: number(draft.cpuCores),
    memoryGb: number(draft.memoryGb),
    inPlace: draft.inPlace,
  };
}

/** Where each action's input goes; the dialog sends it, a test records it. */
interface SizingSend {
  gpus(input: SetModelGpusInput): void;
  context(input: SetModelContextInput): void;
  resources(input: SetModelResourcesInput): void;
}

type DraftField = Exclude<keyof SizingDraft, "inPlace">;
const FIELDS: Record<SizingAction, DraftField[]> = {
  gpus: ["gpus"],
  context: ["contextTokens", "slots"],
  resources: ["cpuCores", "memoryGb"],
};

export interface SizingFormProps {
  action: SizingAction;
  model: ModelView;
  draft: SizingDraft;
  onDraft(draft: SizingDraft): void;
  send: SizingSend;
  onClose(): void;
  error: unknown;
  isPending: boolean;
  /** The answer of the last change, whose sentences are shown until the dialog closes. */
  result?: ResizeResultView | undefined;
}

export function SizingForm(props: SizingFormProps) {
  const { action, model, draft, send } = props;
  const { t } = useTranslation(["models", "explore"]);
  const dialog = {
    testId: "sizing-dialog",
    className: "dialog-confirm",
    title: t(`sizing.${action}.title`, { name: model.name }),
    onClose: props.onClose,
    intro: <p className="muted">{t(`sizing.${action}.hint`)}</p>,
  };
  const common = {
    error: props.error,
    errorTestId: "sizing-error",
    errorClassName: "bad-text",
    actions: {
      submitLabel: t("sizing.save"),
      submitTestId: "sizing-save",
      isPending: props.isPending,
      cancelLabel: t("sizing.close"),
      onCancel: props.onClose,
    },
  };
  const fields = <SizingFields {...props} />;
  const name = model.name;
  // One branch per action, so each form is typed by its own schema.
  if (action === "gpus")
    return (
      <DialogForm
        {...dialog}
        form={{
          ...common,
          schema: setModelGpusInputSchema,
          readInput: () => gpusInput(name, draft),
          onSubmit: send.gpus,
        }}
      >
        {fields}
      </DialogForm>
    );
  if (action === "context")
    return (
      <DialogForm
        {...dialog}
        form={{
          ...common,
          schema: setModelContextInputSchema,
          readInput: () => contextInput(name, draft),
          onSubmit: send.context,
        }}
      >
        {fields}
      </DialogForm>
    );
  return (
    <DialogForm
      {...dialog}
      form={{
        ...common,
        schema: setModelResourcesInputSchema,
        readInput: () => resourcesInput(name, draft),
        onSubmit: send.resources,
      }}
    >
      {fields}
    </DialogForm>
  );
}

function SizingFields({ action, draft, onDraft, result }: SizingFormProps) {
  const { t } = useTranslation("models");
  return (
    <>
      {FIELDS[action].map((field) => (
        <FormField key={field} label={t(`sizing.fields.${field}`)}>
          <input
            inputMode="numeric"
            value={draft[field]}
            onChange={(event) => onDraft({ ...draft, [field]: event.target.value })}
            data-testid={`sizing-${field}`}
          />
        </FormField>
      ))}
      {action === "resources" ? null : (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.inPlace}
            onChange={(event) => onDraft({ ...draft, inPlace: event.target.checked })}
            data-testid="sizing-in-place"
          />
          {t("sizing.inPlace")}
        </label>
      )}
      {result ? <SizingNotes result={result} /> : null}
    </>
  );
}

/** What sizing said about the change, in the page's language. */
function SizingNotes({ result }: { result: ResizeResultView }) {
  const { t } = useTranslation("models");
  const { t: te } = useTranslation("explore");
  // Restart sentences are the models page's; the plan's (split, context) are sizing's, in explore.json.
  const said = (note: ResizeResultView["notes"][number]) => {
    const options = { ...note.params, defaultValue: note.text };
    return note.code.startsWith("sizing.restart_")
      ? t(note.code.replace("sizing.", "sizing.notes.") as "sizing.notes.restart_none", options)
      : te(note.code as "sizing.weights", options);
  };
  return (
    <ul className="muted" data-testid="sizing-notes">
      <li>
        {result.changed
          ? t("sizing.changed", { revision: result.model.revision })
          : t("sizing.unchanged")}
      </li>
      {result.notes.map((note) => (
        <li key={note.code}>{said(note)}</li>
      ))}
    </ul>
  );
}
