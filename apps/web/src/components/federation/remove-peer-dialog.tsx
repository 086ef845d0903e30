"use client";
// The question before a peer cluster is removed: its models stop being offered here and its sealed
// key is deleted, so Cancel keeps the focus.
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../confirm-dialog";

export interface RemovePeerDialogProps {
  name: string;
  isBusy: boolean;
  onConfirm(): void;
  onCancel(): void;
}

export function RemovePeerDialog({ name, isBusy, onConfirm, onCancel }: RemovePeerDialogProps) {
  const { t } = useTranslation("federation");
  return (
    <ConfirmDialog
      title={t("confirmRemove.title", { name })}
      body={t("confirmRemove.body", { name })}
      confirmLabel={t("confirmRemove.confirm")}
      cancelLabel={t("confirmRemove.cancel")}
      isBusy={isBusy}
      testId="federation-remove-confirm"
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}
