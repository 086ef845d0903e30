"use client";
// A dialog whose body is one form: the common shape of "Add person", "Create key", "Fallbacks".
import type { ReactNode } from "react";
import { Dialog, type DialogProps } from "./dialog";
import { SubmitForm, type SubmitFormProps } from "./submit-form";

export type DialogFormProps<Input> = Omit<DialogProps, "children"> & {
  form: Omit<SubmitFormProps<Input>, "children">;
  /** Text before the form's fields, e.g. what the setting does. */
  intro?: ReactNode;
  children: ReactNode;
};

export function DialogForm<Input>({ form, intro, children, ...dialog }: DialogFormProps<Input>) {
  return (
    <Dialog {...dialog}>
      {intro}
      <SubmitForm {...form}>{children}</SubmitForm>
    </Dialog>
  );
}
